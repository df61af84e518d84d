import { afterEach, describe, expect, it } from 'vitest';
import { type MockEmbeddingsServer, startMockEmbeddingsServer } from '../../test/support/mock-embeddings-server.js';
import { parseModelSpec } from '../models/parse-model-spec.js';
import { MissingOptionalDependencyError, ModelSpecError } from '../spec/errors.js';
import { resolveEmbedder } from './resolve-embedder.js';

let server: MockEmbeddingsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('resolveEmbedder', () => {
  it('resolves hashing:<dimension> offline', async () => {
    const embedder = await resolveEmbedder({ spec: parseModelSpec('hashing:16') });
    expect(embedder.id).toBe('hashing-v1:16');
    expect((await embedder.embed(['x']))[0]).toHaveLength(16);
    await expect(resolveEmbedder({ spec: parseModelSpec('hashing:big') })).rejects.toThrow(ModelSpecError);
  });

  it('resolves OpenAI-compatible providers through the AI SDK, probing the dimension', async () => {
    server = await startMockEmbeddingsServer({ vectorOf: (text) => [text.length, 1] });
    const embedder = await resolveEmbedder({
      spec: parseModelSpec(`vllm:bge-small@${server.baseURL}`),
      apiKey: 'sk-local',
    });
    expect(embedder.id).toBe('vllm:bge-small');
    expect(embedder.dimension).toBe(2);
    expect((await embedder.embed(['abc'])).map((vector) => Array.from(vector))).toEqual([[3, 1]]);
    expect(server.calls.map((call) => call.headers.authorization)).toEqual(['Bearer sk-local', 'Bearer sk-local']);
  });

  it('reports the missing optional package for transformers specs', async () => {
    await expect(resolveEmbedder({ spec: parseModelSpec('transformers:/models/all-MiniLM-L6-v2') })).rejects.toThrow(
      MissingOptionalDependencyError,
    );
  });

  it('refuses providers without embedding support, and compatible specs without a URL', async () => {
    await expect(resolveEmbedder({ spec: parseModelSpec('anthropic:claude') })).rejects.toThrow(
      "provider 'anthropic' has no embedding support here",
    );
    await expect(resolveEmbedder({ spec: parseModelSpec('openai-compatible:e5') })).rejects.toThrow(
      'embedder openai-compatible:e5 needs a base URL',
    );
  });
});
