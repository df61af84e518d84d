import type { IncomingHttpHeaders } from 'node:http';
import {
  createNodeHttpTransport,
  type HttpAnswer,
  type NodeHttpTransport,
  sharedNodeHttpTransport,
} from './node-http-transport.js';

/** Options of `createNodeHttpFetch`. */
export type NodeHttpFetchOptions = {
  /** Used for inputs this implementation does not handle (Request objects, streamed bodies). */
  fallback?: typeof fetch;
  /** The connections to use (default: a transport of its own, closed by `destroy`). */
  transport?: NodeHttpTransport;
};

/** A `fetch` that also lets go of its keep-alive sockets. */
export type NodeHttpFetch = typeof fetch & { destroy(): void };

function plainHeaders(headers: RequestInit['headers']): Record<string, string> {
  const result: Record<string, string> = {};
  if (headers === undefined) return result;
  if (headers instanceof Headers || Array.isArray(headers)) {
    for (const [name, value] of new Headers(headers)) result[name] = value;
    return result;
  }
  for (const [name, value] of Object.entries(headers)) if (typeof value === 'string') result[name] = value;
  return result;
}

function bodyBytes(body: RequestInit['body']): string | Uint8Array | null | undefined {
  if (body === null || body === undefined || typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return undefined;
}

function responseHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return headers;
}

/**
 * A minimal `fetch` over the lean keep-alive transport (`NodeHttpTransport`), for the AI SDK path to
 * self-hosted OpenAI-compatible servers. Node 20's built-in fetch costs several times
 * more CPU per request, which limits a single client to a few hundred calls per second.
 * It sends string or byte bodies, buffers the whole response (the model port does not stream),
 * follows no redirects and asks for no compression. Network failures reject with
 * `TypeError('fetch failed')` carrying the cause, as the built-in fetch does, so callers map
 * them the same way. Anything else goes to `fallback` (the global fetch).
 */
export function createNodeHttpFetch(options: NodeHttpFetchOptions = {}): NodeHttpFetch {
  const fallback = options.fallback ?? globalThis.fetch;
  const transport = options.transport ?? createNodeHttpTransport();

  const nodeFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const body = bodyBytes(init.body);
    if (input instanceof Request || body === undefined) return fallback(input, init);
    const url = typeof input === 'string' ? new URL(input) : input;
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fallback(input, init);
    const method = init.method ?? 'GET';
    let answer: HttpAnswer;
    try {
      answer = await transport.send({
        url,
        method,
        headers: plainHeaders(init.headers),
        body,
        ...(init.signal ? { signal: init.signal } : {}),
      });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new TypeError('fetch failed', { cause: error });
    }
    const { status } = answer;
    const empty = status === 204 || status === 205 || status === 304 || method === 'HEAD';
    return new Response(empty ? null : answer.body, {
      status,
      statusText: answer.statusText,
      headers: responseHeaders(answer.headers),
    });
  };
  return Object.assign(nodeFetch, { destroy: () => transport.destroy() });
}

let shared: NodeHttpFetch | undefined;

/**
 * One process-wide instance over the shared transport, so every model talking to the same
 * server, on either path, reuses connections.
 */
export function sharedNodeHttpFetch(): NodeHttpFetch {
  shared ??= createNodeHttpFetch({ transport: sharedNodeHttpTransport() });
  return shared;
}
