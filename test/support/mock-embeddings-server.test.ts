import { afterEach, describe, expect, it } from 'vitest';
import { type MockEmbeddingsServer, startMockEmbeddingsServer } from './mock-embeddings-server.js';

let server: MockEmbeddingsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(path: string, body: object): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${server!.baseURL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

describe('startMockEmbeddingsServer', () => {
  it('answers each input with its vector, in order, and records the call', async () => {
    server = await startMockEmbeddingsServer({ vectorOf: (text) => [text.length] });
    const { status, json } = await post('/embeddings', { model: 'm', input: ['a', 'bcd'] });
    expect(status).toBe(200);
    expect(json).toMatchObject({
      data: [
        { index: 0, embedding: [1] },
        { index: 1, embedding: [3] },
      ],
      usage: { prompt_tokens: 2 },
    });
    expect(server.calls.map((call) => call.body.input)).toEqual([['a', 'bcd']]);
  });

  it('refuses other routes, plays planned statuses, and stops after maxRequests', async () => {
    server = await startMockEmbeddingsServer({
      vectorOf: () => [0],
      plan: (index) => (index === 0 ? { type: 'status', status: 429 } : { type: 'vectors' }),
      maxRequests: 2,
    });
    expect((await post('/chat/completions', {})).status).toBe(404);
    expect((await post('/embeddings', { input: 'x' })).status).toBe(429);
    expect((await post('/embeddings', { input: 'y' })).status).toBe(503);
    expect(server.calls.map((call) => call.body.input)).toEqual(['x']);
  });

  it('plays a planned status for a handled request', async () => {
    server = await startMockEmbeddingsServer({ vectorOf: () => [0], plan: () => ({ type: 'status', status: 429 }) });
    expect(await post('/embeddings', { input: 'x' })).toEqual({
      status: 429,
      json: { error: { message: 'mock status 429' } },
    });
  });
});
