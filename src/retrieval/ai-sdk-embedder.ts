import type { EmbeddingModelV3 } from '@ai-sdk/provider';
import { embedMany, RetryError } from 'ai';
import { toProviderError } from '../models/provider-error.js';
import { checkEmbeddings, type Embedder } from './embedder.js';

/** An AI SDK 6 provider embedding model (specification V3), re-exported from `@ai-sdk/provider`. */
export type { EmbeddingModelV3 };

/** The text embedded once to learn an embedding model's dimension when none was given. */
export const DIMENSION_PROBE_TEXT = 'dimension probe';

/** Options of `createAiSdkEmbedder`. */
export type AiSdkEmbedderOptions = {
  /** e.g. `createOpenAI({ apiKey }).embeddingModel('text-embedding-3-small')`. */
  model: EmbeddingModelV3;
  /** Our provider id for ids and errors (e.g. `ollama`); defaults to the SDK's provider name. */
  provider?: string;
  /** Vector length; when absent, one probe text is embedded to learn it. */
  dimension?: number;
  /** The SDK's own retries per request (default 2); the SDK honours `retry-after`. */
  maxRetries?: number;
  /** Requests in flight at once when a batch exceeds the model's per-call limit (default 4). */
  maxParallelCalls?: number;
  /** Strings removed from error messages (the API key). */
  secrets?: readonly string[];
};

/**
 * An Embedder over any AI SDK embedding model (OpenAI, Ollama and other OpenAI-compatible
 * servers, …) through `embedMany`, which splits large batches by the model's per-call limit.
 * Every answer is checked (count, length, finite numbers). Provider failures become
 * `ProviderError`s with the API key scrubbed. The id is `<provider>:<modelId>`, so vectors are
 * only reused with the model that made them. Async because the dimension may need one call.
 */
export async function createAiSdkEmbedder(options: AiSdkEmbedderOptions): Promise<Embedder> {
  const { model } = options;
  const provider = options.provider ?? model.provider;
  const maxRetries = options.maxRetries ?? 2;
  const maxParallelCalls = options.maxParallelCalls ?? 4;
  const secrets = options.secrets ?? [];
  const id = `${provider}:${model.modelId}`;

  const request = async (texts: readonly string[], signal: AbortSignal | undefined): Promise<Float32Array[]> => {
    if (texts.length === 0) return [];
    try {
      const { embeddings } = await embedMany({
        model,
        values: [...texts],
        maxRetries,
        maxParallelCalls,
        ...(signal ? { abortSignal: signal } : {}),
      });
      return embeddings.map((embedding) => Float32Array.from(embedding));
    } catch (error) {
      const cause = RetryError.isInstance(error) ? (error.lastError ?? error) : error;
      throw toProviderError(cause, { provider, modelId: model.modelId, secrets });
    }
  };

  let dimension = options.dimension;
  if (dimension === undefined) {
    const [probe] = await request([DIMENSION_PROBE_TEXT], undefined);
    dimension = probe?.length ?? 0;
  }
  if (!Number.isInteger(dimension) || dimension < 1) {
    throw new RangeError(`embedding model ${id} has no usable dimension (got ${dimension})`);
  }
  const fixed = dimension;
  return {
    id,
    dimension: fixed,
    async embed(texts, embedOptions = {}) {
      const vectors = await request(texts, embedOptions.signal);
      checkEmbeddings({ embedderId: id, dimension: fixed, texts, vectors });
      return vectors;
    },
  };
}
