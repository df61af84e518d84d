import { describe, expect, it } from 'vitest';
import { Http1ParseError, Http1ResponseParser, MAX_HEADER_BYTES } from './http1-response-parser.js';

/** Feeds `text` split at every offset in `cuts` (bytes as Latin-1/UTF-8 as given). */
function feed(parser: Http1ResponseParser, pieces: Array<string | Buffer>) {
  let answer: ReturnType<Http1ResponseParser['push']>;
  for (const piece of pieces) answer = parser.push(typeof piece === 'string' ? Buffer.from(piece) : piece);
  return answer;
}

function splitEverywhere(text: string): string[][] {
  return Array.from({ length: text.length - 1 }, (_, index) => [text.slice(0, index + 1), text.slice(index + 1)]);
}

describe('Http1ResponseParser', () => {
  it('reads a content-length response in one piece or split anywhere', () => {
    const raw = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"a":"éb"}';
    for (const pieces of [[raw], ...splitEverywhere(raw)]) {
      const answer = feed(new Http1ResponseParser('POST'), pieces);
      expect(answer).toMatchObject({ status: 200, statusText: 'OK', keepAlive: true });
      expect(answer?.headers).toEqual({ 'content-type': 'application/json', 'content-length': '11' });
      expect(answer?.body.toString('utf8')).toBe('{"a":"éb"}');
    }
  });

  it('reads a status line without a reason phrase', () => {
    const answer = feed(new Http1ResponseParser('GET'), ['HTTP/1.1 503\r\nContent-Length: 0\r\n\r\n']);
    expect([answer?.status, answer?.statusText]).toEqual([503, '']);
  });

  it('waits for the whole body', () => {
    const parser = new Http1ResponseParser('POST');
    expect(parser.push(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\nab'))).toBeUndefined();
    expect(parser.push(Buffer.from('cd'))?.body.toString()).toBe('abcd');
  });

  it('decodes a chunked body (extensions, trailers) split anywhere', () => {
    const raw =
      'HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nX-Trailer: 1\r\n\r\n';
    for (const pieces of [[raw], ...splitEverywhere(raw)]) {
      const answer = feed(new Http1ResponseParser('GET'), pieces);
      expect(answer?.status).toBe(201);
      expect(answer?.body.toString()).toBe('Wikipedia in\r\n\r\nchunks.');
      expect(answer?.keepAlive).toBe(true);
    }
  });

  it('reads a body without framing up to the close, and does not keep that connection', () => {
    const parser = new Http1ResponseParser('GET');
    expect(parser.push(Buffer.from('HTTP/1.1 200 OK\r\nServer: x\r\n\r\nsome '))).toBeUndefined();
    expect(parser.push(Buffer.from('text'))).toBeUndefined();
    expect(parser.end()).toMatchObject({ status: 200, keepAlive: false });
    const cut = new Http1ResponseParser('GET');
    cut.push(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 9\r\n\r\npart'));
    expect(cut.end()).toBeUndefined();
  });

  it('has no body for HEAD, 204 and 304; skips interim 1xx answers', () => {
    expect(feed(new Http1ResponseParser('HEAD'), ['HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n'])?.body).toHaveLength(
      0,
    );
    expect(feed(new Http1ResponseParser('GET'), ['HTTP/1.1 204 No Content\r\n\r\n'])?.status).toBe(204);
    expect(feed(new Http1ResponseParser('GET'), ['HTTP/1.1 304 Not Modified\r\n\r\n'])?.status).toBe(304);
    const answer = feed(new Http1ResponseParser('POST'), [
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n',
      'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok',
    ]);
    expect([answer?.status, answer?.body.toString()]).toEqual([200, 'ok']);
  });

  it('combines repeated headers as node:http does', () => {
    const answer = feed(new Http1ResponseParser('GET'), [
      'HTTP/1.1 429 Too Many Requests\r\nRetry-After: 3\r\nretry-after: 9\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n' +
        'X-Many: 1\r\nX-Many: 2\r\nCookie: c=1\r\nCookie: d=2\r\nContent-Length: 0\r\n\r\n',
    ]);
    expect(answer?.statusText).toBe('Too Many Requests');
    expect(answer?.headers).toEqual({
      'retry-after': '3',
      'set-cookie': ['a=1', 'b=2'],
      'x-many': '1, 2',
      cookie: 'c=1; d=2',
      'content-length': '0',
    });
  });

  it('keeps the connection by version and Connection header, never with bytes after the answer', () => {
    const keep = (raw: string) => feed(new Http1ResponseParser('GET'), [raw])?.keepAlive;
    expect(keep('HTTP/1.1 200 OK\r\nConnection: close\r\ncontent-length: 0\r\n\r\n')).toBe(false);
    expect(keep('HTTP/1.0 200 OK\r\ncontent-length: 0\r\n\r\n')).toBe(false);
    expect(keep('HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\ncontent-length: 0\r\n\r\n')).toBe(true);
    expect(keep('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\nHTTP/1.1')).toBe(false);
  });

  it('refuses what is not an HTTP/1.x response', () => {
    const parse = (raw: string) => () => feed(new Http1ResponseParser('GET'), [raw]);
    expect(parse('SSH-2.0-OpenSSH\r\n\r\n')).toThrow(Http1ParseError);
    expect(parse('HTTP/1.1 2000 OK\r\n\r\n')).toThrow(/status line/);
    expect(parse('HTTP/1.2 200 OK\r\n\r\n')).toThrow(/status line/);
    expect(parse('HTTP/1.1 2x0 OK\r\n\r\n')).toThrow(/status line/);
    expect(parse('HTTP/1.1 200 OK\r\nx-a: 1\r\nno colon here\r\ny: 2\r\n\r\n')).toThrow(/Invalid header line/);
    expect(parse('HTTP/1.1 200 OK\r\nbad header\r\n\r\n')).toThrow(/Invalid header line/);
    expect(parse('HTTP/1.1 200 OK\r\ncontent-length: 1, 2\r\n\r\n')).toThrow(/content-length/);
    expect(parse('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n')).toThrow(/chunk size/);
    expect(parse('HTTP/1.1 101 Switching Protocols\r\n\r\n')).toThrow(/upgrade/);
    expect(parse(`HTTP/1.1 200 OK\r\nx: ${'a'.repeat(MAX_HEADER_BYTES)}`)).toThrow(
      expect.objectContaining({ code: 'HPE_HEADER_OVERFLOW' }),
    );
  });
});
