import type { EmbeddingModelV3 } from '@ai-sdk/provider';
import { embedMany, RetryError } from 'ai';
import { toProviderError } from '../models/provider-error.js';
import type { EmbeddingModel } from '../spec/embedding-model.js';
import { checkEmbeddings, type Embedder, embedderOf } from './embedder.js';

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
  /** The SDK's own retries per request (default 2; 0 when a retry middleware wraps the model). */
  maxRetries?: number;
  /** The SDK's retries for the dimension probe (default `maxRetries`). */
  probeRetries?: number;
  /** Requests in flight at once when a batch exceeds the model's per-call limit (default 4). */
  maxParallelCalls?: number;
  /** Strings removed from error messages (the API key). */
  secrets?: readonly string[];
};

/**
 * The embedding adapter over any AI SDK embedding model (OpenAI, Ollama and other
 * OpenAI-compatible servers, …) through `embedMany`, which splits large batches by the model's
 * per-call limit, reporting the tokens the provider counted. Every answer is checked (count,
 * length, finite numbers). Provider failures become `ProviderError`s with the API key scrubbed.
 * The id is `<provider>:<modelId>`, so vectors are only reused with the model that made them.
 * Async because the dimension may need one call.
 */
export async function createAiSdkEmbeddingModel(options: AiSdkEmbedderOptions): Promise<EmbeddingModel> {
  const { model } = options;
  const provider = options.provider ?? model.provider;
  const maxRetries = options.maxRetries ?? 2;
  const maxParallelCalls = options.maxParallelCalls ?? 4;
  const secrets = options.secrets ?? [];
  const id = `${provider}:${model.modelId}`;

  const request = async ({
    texts,
    signal,
    retries,
  }: {
    texts: readonly string[];
    signal: AbortSignal | undefined;
    retries: number;
  }): Promise<{ vectors: Float32Array[]; tokens: number | null }> => {
    if (texts.length === 0) return { vectors: [], tokens: 0 };
    try {
      const { embeddings, usage } = await embedMany({
        model,
        values: [...texts],
        maxRetries: retries,
        maxParallelCalls,
        ...(signal ? { abortSignal: signal } : {}),
      });
      const tokens = usage?.tokens;
      return {
        vectors: embeddings.map((embedding) => Float32Array.from(embedding)),
        tokens: typeof tokens === 'number' && Number.isFinite(tokens) ? tokens : null,
      };
    } catch (error) {
      const cause = RetryError.isInstance(error) ? (error.lastError ?? error) : error;
      throw toProviderError(cause, { provider, modelId: model.modelId, secrets });
    }
  };

  let dimension = options.dimension;
  if (dimension === undefined) {
    const { vectors } = await request({
      texts: [DIMENSION_PROBE_TEXT],
      signal: undefined,
      retries: options.probeRetries ?? maxRetries,
    });
    dimension = vectors[0]?.length ?? 0;
  }
  if (!Number.isInteger(dimension) || dimension < 1) {
    throw new RangeError(`embedding model ${id} has no usable dimension (got ${dimension})`);
  }
  const fixed = dimension;
  return {
    specificationVersion: 'confidant-1',
    provider,
    modelId: model.modelId,
    id,
    dimension: fixed,
    async doEmbed({ texts, abortSignal }) {
      const { vectors, tokens } = await request({ texts, signal: abortSignal, retries: maxRetries });
      checkEmbeddings({ embedderId: id, dimension: fixed, texts, vectors });
      return { embeddings: vectors, usage: { inputTokens: tokens } };
    },
  };
}

/** `createAiSdkEmbeddingModel` used directly as an Embedder (no cache or ledger; the SDK retries). */
export async function createAiSdkEmbedder(options: AiSdkEmbedderOptions): Promise<Embedder> {
  return embedderOf(await createAiSdkEmbeddingModel(options));
}
