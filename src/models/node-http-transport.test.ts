import { createServer, type Server } from 'node:http';
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
});
