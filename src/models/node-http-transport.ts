import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { onAbort } from './on-abort.js';

/** A whole HTTP answer: status line, headers as Node gives them (lower-cased) and the body bytes. */
export type HttpAnswer = { status: number; statusText: string; headers: IncomingHttpHeaders; body: Buffer };

/** One request of `NodeHttpTransport.send`. */
export type HttpSendOptions = {
  url: URL;
  method: string;
  headers: Record<string, string>;
  /** Sent with its `content-length`; `null`/absent sends no body. */
  body?: string | Uint8Array | null;
  /** Aborting rejects with the signal's reason and drops the connection. */
  signal?: AbortSignal;
  /** No whole answer within this many ms rejects with `RequestTimeoutError` and drops the connection. */
  timeoutMs?: number;
};

/** A request that got no whole answer within its `timeoutMs`. */
export class RequestTimeoutError extends Error {
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`no response within ${timeoutMs} ms`);
    this.name = 'TimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/** HTTP/1.1 over `node:http`/`node:https` with pooled keep-alive connections. */
export type NodeHttpTransport = {
  /**
   * Sends one request and buffers the whole answer (any status). A failure below HTTP (refused
   * connection, reset, unknown host) rejects with Node's own error, which carries its `code`.
   */
  send(options: HttpSendOptions): Promise<HttpAnswer>;
  /** Closes the pooled connections. */
  destroy(): void;
};

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/**
 * The lean HTTP client under both model-layer paths to self-hosted servers: one keep-alive agent
 * per scheme (LIFO, so a hot connection is reused first), no redirects, no compression asked for,
 * the whole answer buffered (the model port does not stream). Measured against undici's `Pool`
 * with `npm run bench` (see the commit that chose it).
 */
export function createNodeHttpTransport(): NodeHttpTransport {
  const httpAgent = new HttpAgent({ keepAlive: true, scheduling: 'lifo' });
  const httpsAgent = new HttpsAgent({ keepAlive: true, scheduling: 'lifo' });
  return {
    send({ url, method, headers, body, signal, timeoutMs }) {
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      const secure = url.protocol === 'https:';
      const sentHeaders =
        body === null || body === undefined
          ? headers
          : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
      return new Promise<HttpAnswer>((resolve, reject) => {
        let settled = false;
        let stopListening: (() => void) | undefined;
        let timer: NodeJS.Timeout | undefined;
        const finish = (action: () => void) => {
          if (settled) return;
          settled = true;
          stopListening?.();
          if (timer !== undefined) clearTimeout(timer);
          action();
        };
        const request = (secure ? httpsRequest : httpRequest)(
          { ...optionsOf(url), method, headers: sentHeaders, agent: secure ? httpsAgent : httpAgent },
          (message) => {
            const chunks: Buffer[] = [];
            message.on('data', (chunk: Buffer) => chunks.push(chunk));
            message.on('error', (error) => finish(() => reject(error)));
            message.on('end', () =>
              finish(() =>
                resolve({
                  status: message.statusCode ?? 0,
                  statusText: message.statusMessage ?? '',
                  headers: message.headers,
                  body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
                }),
              ),
            );
          },
        );
        if (signal) {
          stopListening = onAbort(signal, () => {
            finish(() => reject(abortReason(signal)));
            request.destroy();
          });
        }
        if (timeoutMs !== undefined) {
          timer = setTimeout(() => {
            finish(() => reject(new RequestTimeoutError(timeoutMs)));
            request.destroy();
          }, timeoutMs);
        }
        request.on('error', (error) => finish(() => reject(error)));
        request.end(body ?? undefined);
      });
    },
    destroy() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

/**
 * The request options of a URL, as `http.request(url, …)` derives them (`urlToHttpOptions`),
 * derived once per URL object (again if it was changed since): a model posts every call to the same one.
 */
const urlOptions = new WeakMap<URL, { href: string; options: ReturnType<typeof urlToHttpOptions> }>();
function optionsOf(url: URL): ReturnType<typeof urlToHttpOptions> {
  const cached = urlOptions.get(url);
  // A URL object can be changed in place; its `href` tells.
  if (cached !== undefined && cached.href === url.href) return cached.options;
  const options = urlToHttpOptions(url);
  urlOptions.set(url, { href: url.href, options });
  return options;
}

let shared: NodeHttpTransport | undefined;

/** One process-wide transport, so every model talking to the same server reuses connections. */
export function sharedNodeHttpTransport(): NodeHttpTransport {
  shared ??= createNodeHttpTransport();
  return shared;
}
