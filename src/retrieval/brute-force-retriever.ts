import type { Chunk, Retriever, RetrieverSearchOptions } from '../spec/chunk.js';
import { checkK } from './check-k.js';
import { normalizeVector } from './cosine-similarity.js';
import { checkEmbeddings, type Embedder } from './embedder.js';
import { topKScan, type VectorMatrix } from './top-k-scan.js';

/** The exact cosine reference: every chunk scored in plain JavaScript. */
export type BruteForceRetriever = Retriever & { readonly kind: 'brute-force'; readonly embedder: Embedder };

/**
 * Exact cosine-similarity retrieval by scoring every chunk, with no database: the reference
 * that the sqlite-vec retriever is tested and benchmarked against, and a fallback for small
 * corpora. The `k` most similar chunks that pass the filter are kept (ties go to the earlier
 * chunk), by the same exact scan as `createVectorRetriever` (`topKScan`). Chunks or queries that embed to the zero vector are
 * never ranked, as in `createVectorRetriever`.
 */
export async function createBruteForceRetriever({
  chunks,
  embedder,
  batchSize = 64,
}: {
  chunks: readonly Chunk[];
  embedder: Embedder;
  batchSize?: number;
}): Promise<BruteForceRetriever> {
  const { dimension } = embedder;
  const values = new Float32Array(chunks.length * dimension);
  const present: number[] = [];
  for (let start = 0; start < chunks.length; start += batchSize) {
    const texts = chunks.slice(start, start + batchSize).map((chunk) => chunk.text);
    const vectors = await embedder.embed(texts);
    checkEmbeddings({ embedderId: embedder.id, dimension, texts, vectors });
    vectors.forEach((vector, offset) => {
      const unit = normalizeVector(vector);
      if (unit === null) return;
      values.set(unit, present.length * dimension);
      present.push(start + offset);
    });
  }

  const matrix: VectorMatrix = {
    dimension,
    values: values.subarray(0, present.length * dimension),
    positions: Int32Array.from(present),
  };

  return {
    kind: 'brute-force',
    embedder,
    async search({ query, k, filter }: RetrieverSearchOptions): Promise<Chunk[]> {
      checkK(k);
      if (k === 0) return [];
      const vectors = await embedder.embed([query]);
      checkEmbeddings({ embedderId: embedder.id, dimension, texts: [query], vectors });
      const unit = normalizeVector(vectors[0]!);
      if (unit === null) return [];
      return topKScan({ matrix, query: unit, k, chunks, filter }).map((position) => chunks[position]!);
    },
  };
}
