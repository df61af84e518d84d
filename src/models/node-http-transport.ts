import type { IncomingHttpHeaders } from 'node:http';
import { isIP, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { type Http1Response, Http1ResponseParser } from './http1-response-parser.js';
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

/** HTTP/1.1 over pooled keep-alive `node:net`/`node:tls` connections. */
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

/** The error `node:http` gives when a connection closes before its answer is whole. */
function hangUp(message: string): Error {
  return Object.assign(new Error(message), { code: 'ECONNRESET' });
}

/** Rejects a header name or value that would break the request head (as `node:http` refuses it). */
const UNSAFE_HEADER = /[\r\n\0]/;
function checkedHeader(name: string, value: string): string {
  if (UNSAFE_HEADER.test(name) || UNSAFE_HEADER.test(value) || name === '' || name.includes(':')) {
    throw Object.assign(new TypeError(`Invalid character in header content ["${name}"]`), { code: 'ERR_INVALID_CHAR' });
  }
  return `${name}: ${value}\r\n`;
}

/** Where one URL's requests go: its connection pool and the fixed part of every request head. */
type Origin = {
  secure: boolean;
  /** Host and port as `net.connect` wants them (no IPv6 brackets). */
  host: string;
  port: number;
  /** `host[:port]`, the `Host` header. */
  hostHeader: string;
  /** Idle connections, most recently used last (LIFO: a hot connection is reused first). */
  idle: Connection[];
};

/** A request URL as the transport uses it. */
type Target = { href: string; origin: Origin; path: string; basicAuth: string | undefined };

/** One request in flight on a connection. */
type Exchange = {
  parser: Http1ResponseParser;
  resolve: (answer: HttpAnswer) => void;
  reject: (error: unknown) => void;
};

/** A pooled socket; its listeners are attached once, for every request it carries. */
type Connection = {
  socket: Socket;
  origin: Origin;
  exchange: Exchange | undefined;
  /** `Date.now()` after which the server may have closed it (its `Keep-Alive: timeout` hint). */
  expiresAt: number;
};

/**
 * The lean HTTP client under both model-layer paths to self-hosted servers: HTTP/1.1 written
 * straight onto pooled keep-alive `net`/`tls` sockets (one request per connection at a time,
 * idle connections reused last-in first-out and unreferenced so they never hold the process
 * open, dropped before the server's `Keep-Alive: timeout` hint runs out) and each answer read by
 * `Http1ResponseParser`; no redirects, no compression asked for, the whole answer buffered (the
 * model port does not stream). It asks what `node:http` with a keep-alive agent asks and fails as
 * it fails: Node's socket error with its `code` (refused, reset, unknown host, TLS), `socket hang
 * up` (`ECONNRESET`) for a connection closed before the answer. Measured against `node:http`'s
 * agent with `npm run bench` and the CLI bench: about a third of its CPU per request (see the
 * commit that chose it; undici is not a dependency).
 */
export function createNodeHttpTransport(): NodeHttpTransport {
  const origins = new Map<string, Origin>();
  const connections = new Set<Connection>();

  const originOf = (url: URL): Origin => {
    const key = url.origin;
    let origin = origins.get(key);
    if (origin === undefined) {
      const secure = url.protocol === 'https:';
      if (!secure && url.protocol !== 'http:') {
        throw Object.assign(new TypeError(`Protocol "${url.protocol}" not supported. Expected "http:"`), {
          code: 'ERR_INVALID_PROTOCOL',
        });
      }
      const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
      origin = {
        secure,
        host: hostname,
        port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
        hostHeader: url.host,
        idle: [],
      };
      origins.set(key, origin);
    }
    return origin;
  };

  /**
   * What a URL contributes to a request, derived once per URL object (again if it was changed
   * since: its `href` tells): a model posts every call to the same one, and URL getters are not free.
   */
  const targets = new WeakMap<URL, Target>();
  const targetOf = (url: URL): Target => {
    const href = url.href;
    const cached = targets.get(url);
    if (cached !== undefined && cached.href === href) return cached;
    const target: Target = {
      href,
      origin: originOf(url),
      path: `${url.pathname}${url.search}`,
      basicAuth:
        url.username === '' && url.password === ''
          ? undefined
          : Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64'),
    };
    targets.set(url, target);
    return target;
  };

  const drop = (connection: Connection) => {
    connections.delete(connection);
    const { idle } = connection.origin;
    const index = idle.lastIndexOf(connection);
    if (index >= 0) idle.splice(index, 1);
    connection.socket.destroy();
  };

  /** Ends the exchange in flight (if any) with `error` and drops the connection. */
  const fail = (connection: Connection, error: unknown) => {
    const { exchange } = connection;
    connection.exchange = undefined;
    drop(connection);
    exchange?.reject(error);
  };

  const open = (origin: Origin): Connection => {
    const socket = origin.secure
      ? tlsConnect({ host: origin.host, port: origin.port, ...(isIP(origin.host) ? {} : { servername: origin.host }) })
      : netConnect({ host: origin.host, port: origin.port });
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 1000);
    const connection: Connection = { socket, origin, exchange: undefined, expiresAt: Number.POSITIVE_INFINITY };
    connections.add(connection);
    socket.on('data', (chunk: Buffer) => {
      const { exchange } = connection;
      // Bytes nobody asked for: the connection is out of step, so it goes.
      if (exchange === undefined) return drop(connection);
      let answer: Http1Response | undefined;
      try {
        answer = exchange.parser.push(chunk);
      } catch (error) {
        return fail(connection, error);
      }
      if (answer !== undefined) settle(connection, exchange, answer);
    });
    socket.on('end', () => {
      const { exchange } = connection;
      const answer = exchange?.parser.end();
      if (exchange !== undefined && answer !== undefined) settle(connection, exchange, answer);
      else fail(connection, hangUp('socket hang up'));
    });
    socket.on('error', (error) => fail(connection, error));
    socket.on('close', () => fail(connection, hangUp('socket hang up')));
    return connection;
  };

  const settle = (connection: Connection, exchange: Exchange, answer: Http1Response) => {
    connection.exchange = undefined;
    const hint = answer.keepAlive ? keepAliveMs(answer.headers['keep-alive']) : 0;
    if (hint > 0 && !connection.socket.destroyed) {
      connection.expiresAt = hint === Number.POSITIVE_INFINITY ? hint : Date.now() + hint;
      connection.socket.unref();
      connection.origin.idle.push(connection);
    } else {
      drop(connection);
    }
    exchange.resolve({
      status: answer.status,
      statusText: answer.statusText,
      headers: answer.headers,
      body: answer.body,
    });
  };

  /** A live idle connection of `origin`, or a new one. */
  const connectionFor = (origin: Origin): Connection => {
    for (;;) {
      const connection = origin.idle.pop();
      if (connection === undefined) return open(origin);
      if (!connection.socket.destroyed && connection.expiresAt > Date.now()) {
        connection.socket.ref();
        return connection;
      }
      drop(connection);
    }
  };

  return {
    send({ url, method, headers, body, signal, timeoutMs }) {
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      let head: string;
      let origin: Origin;
      try {
        const target = targetOf(url);
        origin = target.origin;
        head = `${method} ${target.path} HTTP/1.1\r\n`;
        let hasHost = false;
        let hasAuthorization = false;
        for (const name in headers) {
          const lower = name.toLowerCase();
          if (lower === 'content-length' || lower === 'connection') continue;
          if (lower === 'host') hasHost = true;
          if (lower === 'authorization') hasAuthorization = true;
          head += checkedHeader(name, headers[name] as string);
        }
        if (!hasHost) head += `host: ${origin.hostHeader}\r\n`;
        if (!hasAuthorization && target.basicAuth !== undefined) head += `authorization: Basic ${target.basicAuth}\r\n`;
        head += 'connection: keep-alive\r\n';
        if (body !== null && body !== undefined) head += `content-length: ${Buffer.byteLength(body)}\r\n`;
        head += '\r\n';
      } catch (error) {
        return Promise.reject(error);
      }
      return new Promise<HttpAnswer>((resolve, reject) => {
        let stopListening: (() => void) | undefined;
        let timer: NodeJS.Timeout | undefined;
        const done = () => {
          stopListening?.();
          if (timer !== undefined) clearTimeout(timer);
        };
        const connection = connectionFor(origin);
        const exchange: Exchange = {
          parser: new Http1ResponseParser(method),
          resolve: (answer) => {
            done();
            resolve(answer);
          },
          reject: (error) => {
            done();
            reject(error);
          },
        };
        connection.exchange = exchange;
        const stop = (reason: unknown) => {
          if (connection.exchange === exchange) fail(connection, reason);
        };
        if (signal) stopListening = onAbort(signal, () => stop(abortReason(signal)));
        if (timeoutMs !== undefined) timer = setTimeout(() => stop(new RequestTimeoutError(timeoutMs)), timeoutMs);
        const { socket } = connection;
        if (typeof body === 'string') {
          socket.write(head + body);
        } else if (body === null || body === undefined) {
          socket.write(head);
        } else {
          socket.cork();
          socket.write(head);
          socket.write(body);
          socket.uncork();
        }
      });
    },
    destroy() {
      for (const connection of [...connections]) fail(connection, hangUp('socket hang up'));
      origins.clear();
    },
  };
}

/**
 * How long an idle connection may be kept: until 1 s before the server's `Keep-Alive: timeout`
 * hint runs out (as `node:http`'s agent reckons), 0 when that leaves nothing, forever without a hint.
 */
function keepAliveMs(hint: string | string[] | undefined): number {
  if (typeof hint !== 'string') return Number.POSITIVE_INFINITY;
  const seconds = /^timeout=(\d+)/.exec(hint)?.[1];
  if (seconds === undefined) return Number.POSITIVE_INFINITY;
  return Math.max(0, Number(seconds) * 1000 - 1000);
}

let shared: NodeHttpTransport | undefined;

/** One process-wide transport, so every model talking to the same server reuses connections. */
export function sharedNodeHttpTransport(): NodeHttpTransport {
  shared ??= createNodeHttpTransport();
  return shared;
}
