import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockEmbeddingsServer, startMockEmbeddingsServer } from '../../test/support/mock-embeddings-server.js';
import { ConfidantError } from '../spec/errors.js';
import { createAiSdkEmbedder, DIMENSION_PROBE_TEXT } from './ai-sdk-embedder.js';

/** A known vector per text: its length, its first char code, and 1. */
const vectorOf = (text: string) => [text.length, text.charCodeAt(0) || 0, 1];

let server: MockEmbeddingsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function modelAt(baseURL: string, apiKey = 'sk-test-secret') {
  return createOpenAICompatible({ name: 'local', baseURL, apiKey }).embeddingModel('mini-embed');
}

describe('createAiSdkEmbedder over a loopback OpenAI-compatible server', () => {
  it('embeds a batch in order through POST /v1/embeddings', async () => {
    server = await startMockEmbeddingsServer({ vectorOf });
    const embedder = await createAiSdkEmbedder({ model: modelAt(server.baseURL), provider: 'ollama', dimension: 3 });
    expect(embedder.id).toBe('ollama:mini-embed');
    expect(embedder.dimension).toBe(3);
    const vectors = await embedder.embed(['ab', 'xyz']);
    expect(vectors.map((vector) => Array.from(vector))).toEqual([
      [2, 97, 1],
      [3, 120, 1],
    ]);
    expect(vectors[0]).toBeInstanceOf(Float32Array);
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.path).toBe('/v1/embeddings');
    expect(server.calls[0]?.body).toMatchObject({ model: 'mini-embed', input: ['ab', 'xyz'] });
    expect(await embedder.embed([])).toEqual([]);
    expect(server.calls).toHaveLength(1);
  });

  it('learns the dimension from one probe when none is given', async () => {
    server = await startMockEmbeddingsServer({ vectorOf });
    const embedder = await createAiSdkEmbedder({ model: modelAt(server.baseURL) });
    expect(embedder.dimension).toBe(3);
    expect(embedder.id).toBe('local.embedding:mini-embed');
    expect(server.calls.map((call) => call.body.input)).toEqual([[DIMENSION_PROBE_TEXT]]);
  });

  it('rejects vectors of the wrong length', async () => {
    server = await startMockEmbeddingsServer({ vectorOf });
    const embedder = await createAiSdkEmbedder({ model: modelAt(server.baseURL), dimension: 4 });
    await expect(embedder.embed(['a'])).rejects.toThrow('returned a vector of 3 numbers for text 0; expected 4');
  });

  it('turns an HTTP failure into a ProviderError without the API key', async () => {
    server = await startMockEmbeddingsServer({
      vectorOf,
      plan: () => ({ type: 'status', status: 401, body: { error: { message: 'bad key sk-test-secret' } } }),
    });
    const embedder = await createAiSdkEmbedder({
      model: modelAt(server.baseURL),
      dimension: 3,
      maxRetries: 0,
      secrets: ['sk-test-secret'],
    });
    const error = await embedder.embed(['a']).catch((caught: unknown) => caught);
    expect(ConfidantError.isInstance(error) && error.name).toBe('ProviderError');
    expect(error).toMatchObject({ kind: 'deterministic', status: 401 });
    expect((error as Error).message).toContain('HTTP 401');
    expect((error as Error).message).not.toContain('sk-test-secret');
    expect(server.calls[0]?.headers.authorization).toBe('Bearer sk-test-secret');
  });
});
