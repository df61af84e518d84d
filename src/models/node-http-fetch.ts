import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { onAbort } from './on-abort.js';

/** Options of `createNodeHttpFetch`. */
export type NodeHttpFetchOptions = {
  /** Used for inputs this implementation does not handle (Request objects, streamed bodies). */
  fallback?: typeof fetch;
};

/** A `fetch` that also lets go of its keep-alive sockets. */
export type NodeHttpFetch = typeof fetch & { destroy(): void };

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

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

function responseHeaders(message: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return headers;
}

/**
 * A minimal `fetch` over `node:http`/`node:https` with keep-alive agents, for high-throughput
 * calls to self-hosted OpenAI-compatible servers. Node 20's built-in fetch costs several times
 * more CPU per request, which limits a single client to a few hundred calls per second.
 * It sends string or byte bodies, buffers the whole response (the model port does not stream),
 * follows no redirects and asks for no compression. Network failures reject with
 * `TypeError('fetch failed')` carrying the cause, as the built-in fetch does, so callers map
 * them the same way. Anything else goes to `fallback` (the global fetch).
 */
export function createNodeHttpFetch(options: NodeHttpFetchOptions = {}): NodeHttpFetch {
  const fallback = options.fallback ?? globalThis.fetch;
  const httpAgent = new HttpAgent({ keepAlive: true, scheduling: 'lifo' });
  const httpsAgent = new HttpsAgent({ keepAlive: true, scheduling: 'lifo' });

  const nodeFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const body = bodyBytes(init.body);
    if (input instanceof Request || body === undefined) return fallback(input, init);
    const url = typeof input === 'string' ? new URL(input) : input;
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fallback(input, init);
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const headers = plainHeaders(init.headers);
    if (body !== null) headers['content-length'] = String(Buffer.byteLength(body));
    const secure = url.protocol === 'https:';
    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      let stopListening: (() => void) | undefined;
      const finish = (action: () => void) => {
        if (settled) return;
        settled = true;
        stopListening?.();
        action();
      };
      const request = (secure ? httpsRequest : httpRequest)(
        url,
        { method: init.method ?? 'GET', headers, agent: secure ? httpsAgent : httpAgent },
        (message) => {
          const chunks: Buffer[] = [];
          message.on('data', (chunk: Buffer) => chunks.push(chunk));
          message.on('error', (error) => finish(() => reject(new TypeError('fetch failed', { cause: error }))));
          message.on('end', () =>
            finish(() => {
              const status = message.statusCode ?? 0;
              const empty = status === 204 || status === 205 || status === 304 || init.method === 'HEAD';
              resolve(
                new Response(empty ? null : Buffer.concat(chunks), {
                  status,
                  statusText: message.statusMessage ?? '',
                  headers: responseHeaders(message),
                }),
              );
            }),
          );
        },
      );
      if (signal) {
        stopListening = onAbort(signal, () => {
          finish(() => reject(abortReason(signal)));
          request.destroy();
        });
      }
      request.on('error', (error) => finish(() => reject(new TypeError('fetch failed', { cause: error }))));
      request.end(body ?? undefined);
    });
  };
  return Object.assign(nodeFetch, {
    destroy() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  });
}

let shared: NodeHttpFetch | undefined;

/** One process-wide instance, so every model talking to the same server reuses connections. */
export function sharedNodeHttpFetch(): NodeHttpFetch {
  shared ??= createNodeHttpFetch();
  return shared;
}
