import type { Chunk, Retriever, RetrieverSearchOptions } from '../spec/chunk.js';
import { checkK } from './check-k.js';
import { normalizeVector } from './cosine-similarity.js';
import { embedVectorMatrix } from './embed-vector-matrix.js';
import { checkEmbeddings, type Embedder } from './embedder.js';
import { topKScan } from './top-k-scan.js';

/** The exact cosine reference over chunks in memory, with no database. */
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
  const matrix = await embedVectorMatrix({ chunks, embedder, batchSize });
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
