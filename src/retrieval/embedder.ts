import type { Embedder } from '../spec/embedder.js';
import type { EmbeddingModel } from '../spec/embedding-model.js';
import { ConfidantError } from '../spec/errors.js';

/** The embedder port lives in spec/ (it is part of `ModelRoles`); re-exported for retrieval's callers. */
export type { Embedder } from '../spec/embedder.js';

/**
 * An embedding adapter over a local `Embedder` (hashing, transformers.js): its vectors, no token
 * counts (`inputTokens: null`; local providers are free in the price table).
 */
export function embeddingModelOf({
  embedder,
  provider,
  modelId,
}: {
  embedder: Embedder;
  provider: string;
  modelId: string;
}): EmbeddingModel {
  return {
    specificationVersion: 'confidant-1',
    provider,
    modelId,
    id: embedder.id,
    dimension: embedder.dimension,
    doEmbed: async ({ texts, abortSignal }) => ({
      embeddings: await embedder.embed(texts, abortSignal === undefined ? {} : { signal: abortSignal }),
      usage: { inputTokens: null },
    }),
  };
}

/** An embedding adapter used directly as an `Embedder`, outside any run (no cache, no ledger). */
export function embedderOf(model: EmbeddingModel): Embedder {
  return {
    id: model.id,
    dimension: model.dimension,
    embed: async (texts, options = {}) =>
      (
        await model.doEmbed({
          texts: [...texts],
          ...(options.signal === undefined ? {} : { abortSignal: options.signal }),
        })
      ).embeddings,
  };
}

/**
 * Checks what an embedding model returned: one vector per text, each `dimension` long and
 * finite. Throws a ConfidantError naming the embedder and the first problem, because a
 * silently wrong vector would corrupt every ranking that uses it.
 */
export function checkEmbeddings({
  embedderId,
  dimension,
  texts,
  vectors,
}: {
  embedderId: string;
  dimension: number;
  texts: readonly string[];
  vectors: readonly ArrayLike<number>[];
}): void {
  if (vectors.length !== texts.length) {
    throw new ConfidantError(`embedder ${embedderId} returned ${vectors.length} vectors for ${texts.length} texts`);
  }
  vectors.forEach((vector, index) => {
    if (vector.length !== dimension) {
      throw new ConfidantError(
        `embedder ${embedderId} returned a vector of ${vector.length} numbers for text ${index}; expected ${dimension}`,
      );
    }
    for (let position = 0; position < vector.length; position++) {
      if (!Number.isFinite(vector[position])) {
        throw new ConfidantError(`embedder ${embedderId} returned a non-finite number in the vector of text ${index}`);
      }
    }
  });
}
