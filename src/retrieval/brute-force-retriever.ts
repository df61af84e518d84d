import type { Chunk, Retriever, RetrieverSearchOptions } from '../spec/chunk.js';
import { checkK } from './check-k.js';
import { normalizeVector } from './cosine-similarity.js';
import { checkEmbeddings, type Embedder } from './embedder.js';

/** The exact cosine reference: every chunk scored in plain JavaScript. */
export type BruteForceRetriever = Retriever & { readonly kind: 'brute-force'; readonly embedder: Embedder };

/**
 * Exact cosine-similarity retrieval by scoring every chunk, with no database: the reference
 * that the sqlite-vec retriever is tested and benchmarked against, and a fallback for small
 * corpora. The filter runs on every chunk first, then the `k` most similar permitted chunks are
 * kept (ties go to the earlier chunk). Chunks or queries that embed to the zero vector are
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
  const matrix = new Float32Array(chunks.length * dimension);
  const present = new Uint8Array(chunks.length);
  for (let start = 0; start < chunks.length; start += batchSize) {
    const texts = chunks.slice(start, start + batchSize).map((chunk) => chunk.text);
    const vectors = await embedder.embed(texts);
    checkEmbeddings({ embedderId: embedder.id, dimension, texts, vectors });
    vectors.forEach((vector, offset) => {
      const unit = normalizeVector(vector);
      if (unit === null) return;
      matrix.set(unit, (start + offset) * dimension);
      present[start + offset] = 1;
    });
  }

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
      // The best k so far, kept sorted by descending score: k is small, so insertion is cheap.
      const best: Array<{ position: number; score: number }> = [];
      for (let position = 0; position < chunks.length; position++) {
        if (present[position] === 0) continue;
        if (filter && !filter(chunks[position]!)) continue;
        let score = 0;
        const offset = position * dimension;
        for (let slot = 0; slot < dimension; slot++) score += matrix[offset + slot]! * unit[slot]!;
        if (best.length === k && score <= best[k - 1]!.score) continue;
        let at = best.length;
        while (at > 0 && best[at - 1]!.score < score) at--;
        best.splice(at, 0, { position, score });
        if (best.length > k) best.pop();
      }
      return best.map(({ position }) => chunks[position]!);
    },
  };
}
