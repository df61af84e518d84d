import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockEmbeddingsServer, startMockEmbeddingsServer } from '../../test/support/mock-embeddings-server.js';
import { MissingApiKeyError, ModelSpecError } from '../spec/errors.js';
import { resolvePlanEmbedder } from './resolve-plan-embedder.js';

let server: MockEmbeddingsServer;

beforeAll(async () => {
  server = await startMockEmbeddingsServer({ vectorOf: (text) => [text.length, 1, 0] });
});

afterAll(async () => {
  await server.close();
});

describe('resolvePlanEmbedder', () => {
  it("takes the key from the provider's environment variable and sends it to the endpoint", async () => {
    const before = server.calls.length;
    const { embedder, spec } = await resolvePlanEmbedder({
      binding: { role: 'embedder', spec: `openai-compatible:emb@${server.baseURL}` },
      env: { OPENAI_COMPATIBLE_API_KEY: ' key-123 ', OPENAI_API_KEY: 'not-this-one' },
    });
    expect(embedder).toMatchObject({ id: 'openai-compatible:emb', dimension: 3 });
    expect(spec).toEqual({ provider: 'openai-compatible', modelId: 'emb', baseURLs: [server.baseURL] });
    // One dimension probe, authorised with the trimmed key of this provider.
    expect(server.calls.slice(before).map((call) => [call.body.model, call.headers.authorization])).toEqual([
      ['emb', 'Bearer key-123'],
    ]);
    expect(await embedder.embed(['abcd'])).toEqual([Float32Array.from([4, 1, 0])]);
  });

  it('a provider that requires a key fails without one, naming the variable', async () => {
    const missing = resolvePlanEmbedder({
      binding: { role: 'embedder', spec: `openai:text-embedding-3-small@${server.baseURL}` },
      env: { OPENAI_API_KEY: '  ' },
    });
    await expect(missing).rejects.toThrow(MissingApiKeyError);
    await expect(missing).rejects.toThrow(
      'openai:text-embedding-3-small needs an API key: set OPENAI_API_KEY in the environment',
    );
    const keyed = await resolvePlanEmbedder({
      binding: { role: 'embedder', spec: `openai:text-embedding-3-small@${server.baseURL}` },
      env: { OPENAI_API_KEY: 'sk-test' },
    });
    expect(keyed.embedder.id).toBe('openai:text-embedding-3-small');
    expect(server.calls.at(-1)?.headers.authorization).toBe('Bearer sk-test');
  });

  it('a local embedder needs no key and no network', async () => {
    const before = server.calls.length;
    const { embedder } = await resolvePlanEmbedder({ binding: { role: 'embedder', spec: 'hashing:16' }, env: {} });
    expect(embedder).toMatchObject({ id: 'hashing-v1:16', dimension: 16 });
    expect(server.calls.length).toBe(before);
  });

  it('a provider without embeddings is a spec error listing those that work, before any key is asked for', async () => {
    for (const spec of ['anthropic:claude-x', 'llamacpp:/m.gguf']) {
      const rejected = resolvePlanEmbedder({ binding: { role: 'embedder', spec }, env: {} });
      await expect(rejected).rejects.toThrow(ModelSpecError);
      await expect(rejected).rejects.toThrow(/has no embedding support here; use one of openai:text-embedding-3-small/);
    }
  });
});
