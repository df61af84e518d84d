import type { IncomingHttpHeaders } from 'node:http';

/** A whole HTTP/1.x response as `Http1ResponseParser` reads it. */
export type Http1Response = {
  status: number;
  statusText: string;
  /** Lower-cased names, duplicates combined as `node:http` combines them (see `addHeader`). */
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The connection can carry another request: keep-alive framing and nothing after the body. */
  keepAlive: boolean;
};

/** Bytes that are not an HTTP/1.x response (its `code` names the fault, as Node's `HPE_*` codes do). */
export class Http1ParseError extends Error {
  readonly code: string;

  constructor(message: string, code = 'HPE_INVALID_RESPONSE') {
    super(`Parse Error: ${message}`);
    this.name = 'Error';
    this.code = code;
  }
}

/** Node's default `--max-http-header-size`: a response head larger than this is refused. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** A chunk-size line or a trailer line longer than this is refused. */
const MAX_LINE_BYTES = 4 * 1024;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const DIGITS = /^\d+$/;
const HEX = /^[0-9A-Fa-f]+$/;
const EMPTY = Buffer.alloc(0);
const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
const LINE_END = Buffer.from('\r\n', 'latin1');

/** Headers of which `node:http` keeps only the first value (`IncomingMessage`'s `matchKnownFields`). */
const FIRST_WINS = new Set([
  'content-type',
  'content-length',
  'user-agent',
  'referer',
  'host',
  'authorization',
  'proxy-authorization',
  'if-modified-since',
  'if-unmodified-since',
  'from',
  'location',
  'max-forwards',
  'retry-after',
  'etag',
  'last-modified',
  'server',
  'age',
  'expires',
]);

/** One header line added as `node:http` adds it: `set-cookie` as a list, `cookie` joined by `; `, the rest by `, `. */
function addHeader(headers: IncomingHttpHeaders, name: string, value: string): void {
  const record = headers as Record<string, string | string[] | undefined>;
  const existing = record[name];
  if (existing === undefined) {
    record[name] = name === 'set-cookie' ? [value] : value;
  } else if (name === 'set-cookie') {
    (existing as string[]).push(value);
  } else if (!FIRST_WINS.has(name)) {
    record[name] = `${existing as string}${name === 'cookie' ? '; ' : ', '}${value}`;
  }
}

/** The comma-separated tokens of a header value, lower-cased. */
function tokensOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value.join(',') : value).split(',').map((token) => token.trim().toLowerCase());
}

/** Whether a `connection` header lists `token` (`close`, `keep-alive`); one token without a comma is the common case. */
function listsToken(value: string | string[] | undefined, token: string): boolean {
  if (value === undefined) return false;
  if (typeof value === 'string' && !value.includes(',')) return value.trim().toLowerCase() === token;
  return tokensOf(value).includes(token);
}

type Head = { version: 0 | 1; status: number; statusText: string; headers: IncomingHttpHeaders };

/** `HTTP/1.x NNN reason`: the version digit, the status, the reason (possibly empty). */
function parseStatusLine(line: string): Pick<Head, 'version' | 'status' | 'statusText'> {
  const version = line.charCodeAt(7) - 0x30;
  const status = Number(line.slice(9, 12));
  if (
    !line.startsWith('HTTP/1.') ||
    (version !== 0 && version !== 1) ||
    line.charCodeAt(8) !== 0x20 ||
    !DIGITS.test(line.slice(9, 12)) ||
    (line.length > 12 && line.charCodeAt(12) !== 0x20)
  ) {
    throw new Http1ParseError('Expected HTTP/1.x status line', 'HPE_INVALID_CONSTANT');
  }
  return { version, status, statusText: line.slice(13) };
}

function parseHead(text: string): Head {
  let lineEnd = text.indexOf('\r\n');
  if (lineEnd < 0) lineEnd = text.length;
  const { version, status, statusText } = parseStatusLine(text.slice(0, lineEnd));
  const headers: IncomingHttpHeaders = {};
  while (lineEnd < text.length) {
    const start = lineEnd + 2;
    lineEnd = text.indexOf('\r\n', start);
    if (lineEnd < 0) lineEnd = text.length;
    const colon = text.indexOf(':', start);
    const name = colon > start && colon < lineEnd ? text.slice(start, colon) : '';
    if (!TOKEN.test(name)) throw new Http1ParseError('Invalid header line', 'HPE_INVALID_HEADER_TOKEN');
    addHeader(headers, name.toLowerCase(), text.slice(colon + 1, lineEnd).trim());
  }
  return { version: version as 0 | 1, status, statusText, headers };
}

type Framing =
  | { kind: 'none' }
  | { kind: 'length'; remaining: number }
  | { kind: 'chunked'; step: 'size' | 'data' | 'data-end' | 'trailer'; remaining: number }
  | { kind: 'close' };

/**
 * An incremental reader of one HTTP/1.x response, for the lean transport's pooled sockets: the
 * status line and headers (up to `MAX_HEADER_BYTES`, interim 1xx responses skipped), then the
 * body framed by `transfer-encoding: chunked` (trailers read and dropped), `content-length`, or
 * the connection's close; no body for `HEAD`, 204 and 304. Headers are decoded as Latin-1, as
 * Node decodes them. Feed it the socket's bytes with `push` until it returns the response; tell it
 * the peer closed with `end`. Anything else throws `Http1ParseError`.
 */
export class Http1ResponseParser {
  private readonly method: string;
  private pending: Buffer = EMPTY;
  private head: Head | undefined;
  private framing: Framing | undefined;
  private parts: Buffer[] = [];
  private done = false;

  constructor(method: string) {
    this.method = method;
  }

  /** Reads `chunk`; returns the response once it is whole, `undefined` while more is due. */
  push(chunk: Buffer): Http1Response | undefined {
    if (this.done) throw new Http1ParseError('Data after the end of the response');
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (this.head === undefined) {
      const end = this.pending.indexOf(HEAD_END);
      if (end < 0) {
        if (this.pending.length > MAX_HEADER_BYTES) throw new Http1ParseError('Header overflow', 'HPE_HEADER_OVERFLOW');
        return undefined;
      }
      if (end > MAX_HEADER_BYTES) throw new Http1ParseError('Header overflow', 'HPE_HEADER_OVERFLOW');
      const head = parseHead(this.pending.toString('latin1', 0, end));
      this.pending = this.pending.subarray(end + 4);
      if (head.status === 101) throw new Http1ParseError('Unexpected protocol upgrade');
      // Interim answers (100 Continue, 103 Early Hints) precede the real one.
      if (head.status >= 100 && head.status < 200) continue;
      this.head = head;
      this.framing = this.framingOf(head);
    }
    return this.readBody();
  }

  /** The peer closed the connection: the response if it was whole by then, else `undefined`. */
  end(): Http1Response | undefined {
    if (this.done || this.head === undefined || this.framing?.kind !== 'close') return undefined;
    return this.finish(false);
  }

  private framingOf(head: Head): Framing {
    if (this.method === 'HEAD' || head.status === 204 || head.status === 304) return { kind: 'none' };
    const transfer = head.headers['transfer-encoding'];
    if (transfer !== undefined) {
      // Chunked must be the last coding; any other transfer coding runs to the close.
      return tokensOf(transfer).at(-1) === 'chunked'
        ? { kind: 'chunked', step: 'size', remaining: 0 }
        : { kind: 'close' };
    }
    const length = head.headers['content-length'];
    if (length === undefined) return { kind: 'close' };
    if (DIGITS.test(length)) return { kind: 'length', remaining: Number(length) };
    const lengths = tokensOf(length);
    if (!lengths.every((value) => DIGITS.test(value) && value === lengths[0])) {
      throw new Http1ParseError('Invalid content-length', 'HPE_INVALID_CONTENT_LENGTH');
    }
    return { kind: 'length', remaining: Number(lengths[0]) };
  }

  private readBody(): Http1Response | undefined {
    const framing = this.framing as Framing;
    switch (framing.kind) {
      case 'none':
        return this.finish(this.pending.length === 0);
      case 'close':
        this.take(this.pending.length);
        return undefined;
      case 'length': {
        const taken = Math.min(framing.remaining, this.pending.length);
        this.take(taken);
        framing.remaining -= taken;
        return framing.remaining === 0 ? this.finish(this.pending.length === 0) : undefined;
      }
      case 'chunked':
        return this.readChunks(framing);
    }
  }

  private readChunks(framing: Extract<Framing, { kind: 'chunked' }>): Http1Response | undefined {
    for (;;) {
      if (framing.step === 'data') {
        const taken = Math.min(framing.remaining, this.pending.length);
        this.take(taken);
        framing.remaining -= taken;
        if (framing.remaining > 0) return undefined;
        framing.step = 'data-end';
        continue;
      }
      if (framing.step === 'data-end') {
        if (this.pending.length < 2) return undefined;
        if (this.pending[0] !== 0x0d || this.pending[1] !== 0x0a) throw new Http1ParseError('Invalid chunk end');
        this.pending = this.pending.subarray(2);
        framing.step = 'size';
        continue;
      }
      const lineEnd = this.pending.indexOf(LINE_END);
      if (lineEnd < 0) {
        if (this.pending.length > MAX_LINE_BYTES) throw new Http1ParseError('Chunk line overflow');
        return undefined;
      }
      const line = this.pending.toString('latin1', 0, lineEnd);
      this.pending = this.pending.subarray(lineEnd + 2);
      if (framing.step === 'trailer') {
        // Trailer fields are read and dropped; an empty line ends the message.
        if (line === '') return this.finish(this.pending.length === 0);
        continue;
      }
      const size = (line.split(';', 1)[0] as string).trim();
      if (!HEX.test(size) || size.length > 12) throw new Http1ParseError('Invalid chunk size');
      framing.remaining = Number.parseInt(size, 16);
      framing.step = framing.remaining === 0 ? 'trailer' : 'data';
    }
  }

  /** Moves the first `count` pending bytes into the body. */
  private take(count: number): void {
    if (count === 0) return;
    this.parts.push(count === this.pending.length ? this.pending : this.pending.subarray(0, count));
    this.pending = count === this.pending.length ? EMPTY : this.pending.subarray(count);
  }

  private finish(nothingAfter: boolean): Http1Response {
    this.done = true;
    const head = this.head as Head;
    const { connection } = head.headers;
    const persistent = head.version === 1 ? !listsToken(connection, 'close') : listsToken(connection, 'keep-alive');
    const { parts } = this;
    return {
      status: head.status,
      statusText: head.statusText,
      headers: head.headers,
      body: parts.length === 0 ? EMPTY : parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts),
      keepAlive: persistent && nothingAfter && this.framing?.kind !== 'close',
    };
  }
}
