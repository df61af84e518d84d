import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeHttpFetch, type NodeHttpFetch } from './node-http-fetch.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Seen = { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: string };

async function server(
  reply: (seen: Seen) => { status: number; headers?: Record<string, string>; body?: string } | null,
) {
  const seen: Seen[] = [];
  const http: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      const answer = reply(entry);
      if (answer === null) return; // hang
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body ?? '');
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
  return { url: `http://127.0.0.1:${port}`, seen };
}

function client(fallback?: typeof fetch): NodeHttpFetch {
  const fetcher = createNodeHttpFetch(fallback ? { fallback } : {});
  cleanups.push(() => fetcher.destroy());
  return fetcher;
}

describe('createNodeHttpFetch', () => {
  it('posts a body with headers and returns a standard Response', async () => {
    const { url, seen } = await server(() => ({
      status: 201,
      headers: { 'content-type': 'application/json', 'x-thing': 'yes' },
      body: '{"ok":true}',
    }));
    const response = await client()(`${url}/v1/chat?x=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{"q":"é"}',
    });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get('x-thing')).toBe('yes');
    expect(await response.json()).toEqual({ ok: true });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/v1/chat?x=1', body: '{"q":"é"}' });
    expect(seen[0]?.headers.authorization).toBe('Bearer k');
    expect(seen[0]?.headers['content-length']).toBe(String(Buffer.byteLength('{"q":"é"}')));
  });

  it('accepts Headers and byte bodies, and reports error statuses', async () => {
    const { url, seen } = await server(() => ({ status: 429, headers: { 'retry-after': '2' }, body: 'slow down' }));
    const response = await client()(new URL(url), {
      method: 'PUT',
      headers: new Headers({ 'x-a': '1' }),
      body: new TextEncoder().encode('bytes'),
    });
    expect(response.status).toBe(429);
    expect(response.ok).toBe(false);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(await response.text()).toBe('slow down');
    expect(seen[0]).toMatchObject({ method: 'PUT', body: 'bytes' });
    expect(seen[0]?.headers['x-a']).toBe('1');
  });

  it('rejects with the abort reason when aborted', async () => {
    const { url } = await server(() => null);
    const controller = new AbortController();
    const pending = client()(url, { method: 'POST', body: 'x', signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 10);
    await expect(pending).rejects.toThrow('stop');
    const already = new AbortController();
    already.abort();
    await expect(client()(url, { signal: already.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects network failures like the built-in fetch', async () => {
    const { url } = await server(() => ({ status: 200 }));
    await cleanups.pop()?.();
    const error = await client()(url, { method: 'POST', body: '{}' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('fetch failed');
    expect(((error as TypeError).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('hands unsupported inputs to the fallback', async () => {
    const calls: string[] = [];
    const fallback: typeof fetch = async (input) => {
      calls.push(String(input instanceof Request ? input.url : input));
      return new Response('from fallback');
    };
    const fetcher = client(fallback);
    const stream = new ReadableStream({ start: (controller) => controller.close() });
    expect(
      await (
        await fetcher('http://127.0.0.1:9/x', { method: 'POST', body: stream, duplex: 'half' } as RequestInit)
      ).text(),
    ).toBe('from fallback');
    expect(await (await fetcher(new Request('http://127.0.0.1:9/y'))).text()).toBe('from fallback');
    expect(calls).toEqual(['http://127.0.0.1:9/x', 'http://127.0.0.1:9/y']);
  });
});
