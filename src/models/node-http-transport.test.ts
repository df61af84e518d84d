import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort } from '../../test/support/mock-openai-server.js';
import { createNodeHttpTransport, RequestTimeoutError } from './node-http-transport.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server that records each request's body and socket, and answers with `reply` (null: hang). */
async function server(reply: (body: string) => { status: number; body: string } | null) {
  const sockets = new Set<unknown>();
  const bodies: string[] = [];
  const http: Server = createServer((request, response) => {
    sockets.add(request.socket);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      const answer = reply(body);
      if (answer === null) return;
      response.writeHead(answer.status, { 'content-type': 'application/json', 'x-seen': String(bodies.length) });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  );
  return { url: new URL(`http://127.0.0.1:${port}/v1/chat/completions`), bodies, sockets };
}

function transport() {
  const created = createNodeHttpTransport();
  cleanups.push(() => created.destroy());
  return created;
}

describe('createNodeHttpTransport', () => {
  it('posts a body and returns status, headers and body bytes of any status, over one kept-alive connection', async () => {
    const { url, bodies, sockets } = await server((body) => ({
      status: body === 'bad' ? 418 : 200,
      body: `got ${body}`,
    }));
    const client = transport();
    const first = await client.send({ url, method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'é' });
    expect(first.status).toBe(200);
    expect(first.statusText).toBe('OK');
    expect(first.headers['x-seen']).toBe('1');
    expect(first.body.toString('utf8')).toBe('got é');
    const second = await client.send({ url, method: 'POST', headers: {}, body: 'bad' });
    expect([second.status, second.body.toString('utf8')]).toEqual([418, 'got bad']);
    expect(bodies).toEqual(['é', 'bad']);
    expect(sockets.size).toBe(1);
  });

  it('rejects with RequestTimeoutError when no answer comes in time', async () => {
    const { url } = await server(() => null);
    const error = await transport()
      .send({ url, method: 'POST', headers: {}, body: '{}', timeoutMs: 50 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ name: 'TimeoutError', timeoutMs: 50, message: 'no response within 50 ms' });
  });

  it('rejects with the signal’s reason on abort, before or during the request', async () => {
    const { url } = await server(() => null);
    const client = transport();
    const before = new AbortController();
    before.abort(new Error('early'));
    await expect(client.send({ url, method: 'POST', headers: {}, signal: before.signal })).rejects.toThrow('early');
    const during = new AbortController();
    const pending = client.send({ url, method: 'POST', headers: {}, body: '{}', signal: during.signal });
    setTimeout(() => during.abort(new Error('late')), 20);
    await expect(pending).rejects.toThrow('late');
  });

  it("rejects with Node's own error (and its code) when nothing listens", async () => {
    const port = await closedPort();
    const error = await transport()
      .send({ url: new URL(`http://127.0.0.1:${port}/`), method: 'POST', headers: {}, body: '' })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('reads chunked and close-delimited answers, and opens a new connection when the server dropped one', async () => {
    const { url, port, sockets } = await rawServer((request, socket) => {
      if (request.includes('/chunked')) {
        socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n');
      } else if (request.includes('/close')) {
        socket.end('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nall of it');
      } else {
        // Answers, then closes the idle connection at once (as a server's keep-alive timeout would).
        socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
      }
    });
    const client = transport();
    const at = (path: string) => new URL(path, url);
    const chunked = await client.send({ url: at('/chunked'), method: 'GET', headers: {} });
    expect(chunked.body.toString()).toBe('abc');
    expect((await client.send({ url: at('/close'), method: 'GET', headers: {} })).body.toString()).toBe('all of it');
    expect((await client.send({ url: at('/ok'), method: 'GET', headers: {} })).body.toString()).toBe('ok');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await client.send({ url: at('/ok'), method: 'GET', headers: {} })).body.toString()).toBe('ok');
    // The chunked answer's connection carried the close-delimited one; each `/ok` needed a new one.
    expect(sockets.length).toBe(3);
    expect(port).toBeGreaterThan(0);
  });

  it('sends one request head with host, keep-alive and content-length, reusing the connection', async () => {
    const { url, requests, sockets } = await rawServer((_request, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\nKeep-Alive: timeout=60\r\n\r\n');
    });
    const client = transport();
    await client.send({ url, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"é":1}' });
    await client.send({ url, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(requests[0]).toBe(
      `POST /v1/chat/completions HTTP/1.1\r\ncontent-type: application/json\r\nhost: ${url.host}\r\n` +
        'connection: keep-alive\r\ncontent-length: 8\r\n\r\n{"é":1}',
    );
    expect(sockets.length).toBe(1);
    await expect(
      client.send({ url, method: 'POST', headers: { 'x-bad': 'a\r\nx-injected: 1' }, body: '' }),
    ).rejects.toMatchObject({ code: 'ERR_INVALID_CHAR' });
  });

  it('does not reuse a connection past the server’s keep-alive hint', async () => {
    const { url, sockets } = await rawServer((_request, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\nKeep-Alive: timeout=1\r\n\r\n');
    });
    const client = transport();
    await client.send({ url, method: 'GET', headers: {} });
    await client.send({ url, method: 'GET', headers: {} });
    expect(sockets.length).toBe(2);
  });

  it('rejects with "socket hang up" (ECONNRESET) or the parse error when the answer breaks off', async () => {
    const { url } = await rawServer((request, socket) => {
      if (request.includes('/garbage')) socket.write('SSH-2.0-nope\r\n\r\n');
      else socket.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc');
    });
    const client = transport();
    await expect(client.send({ url, method: 'GET', headers: {} })).rejects.toMatchObject({
      message: 'socket hang up',
      code: 'ECONNRESET',
    });
    await expect(client.send({ url: new URL('/garbage', url), method: 'GET', headers: {} })).rejects.toMatchObject({
      code: 'HPE_INVALID_CONSTANT',
    });
  });

  it('follows a URL object changed in place to its new path', async () => {
    const { url, requests } = await rawServer((_request, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
    });
    const client = transport();
    const target = new URL(url);
    await client.send({ url: target, method: 'GET', headers: {} });
    target.pathname = '/other';
    target.search = '?q=1';
    await client.send({ url: target, method: 'GET', headers: {} });
    expect(requests.map((request) => request.split('\r\n')[0])).toEqual([
      'GET /v1/chat/completions HTTP/1.1',
      'GET /other?q=1 HTTP/1.1',
    ]);
  });

  it('carries many concurrent requests', async () => {
    const { url, bodies } = await server((body) => ({ status: 200, body: `echo ${body}` }));
    const client = transport();
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, index) =>
        client.send({ url, method: 'POST', headers: {}, body: String(index) }).then((answer) => answer.body.toString()),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 64 }, (_, index) => `echo ${index}`));
    expect(bodies).toHaveLength(64);
  });
});

/** A TCP server that calls `answer` with each request's head and body text (one request per read). */
async function rawServer(answer: (request: string, socket: Socket) => void) {
  const sockets: Socket[] = [];
  const requests: string[] = [];
  const tcp = createNetServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      const request = chunk.toString('utf8');
      requests.push(request);
      answer(request, socket);
    });
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', () => resolve()));
  const address = tcp.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        tcp.close(() => resolve());
      }),
  );
  return { url: new URL(`http://127.0.0.1:${port}/v1/chat/completions`), port, sockets, requests };
}
