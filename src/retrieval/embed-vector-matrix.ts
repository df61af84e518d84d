import type { Chunk } from '../spec/chunk.js';
import { normalizeVector } from './cosine-similarity.js';
import { checkEmbeddings, type Embedder } from './embedder.js';
import { createVectorMatrixBuilder, type VectorMatrix } from './vector-matrix.js';

/**
 * Embeds every chunk's text (in batches of `batchSize`) straight into one `VectorMatrix` of unit
 * rows. A chunk whose text embeds to the zero vector has no direction and gets no row, so it is
 * never ranked. `onBatch` sees each batch's unit vectors (null for a zero vector) by chunk
 * position, e.g. to persist them, before the next batch is embedded.
 */
export async function embedVectorMatrix({
  chunks,
  embedder,
  batchSize,
  signal,
  onBatch,
}: {
  chunks: readonly Chunk[];
  embedder: Embedder;
  batchSize: number;
  signal?: AbortSignal | undefined;
  onBatch?: (start: number, units: Array<Float32Array | null>) => void;
}): Promise<VectorMatrix> {
  const { dimension } = embedder;
  const builder = createVectorMatrixBuilder({ dimension, capacity: chunks.length });
  for (let start = 0; start < chunks.length; start += batchSize) {
    signal?.throwIfAborted();
    const texts = chunks.slice(start, start + batchSize).map((chunk) => chunk.text);
    const vectors = await embedder.embed(texts, signal ? { signal } : {});
    checkEmbeddings({ embedderId: embedder.id, dimension, texts, vectors });
    const units = vectors.map((vector) => normalizeVector(vector));
    units.forEach((unit, offset) => {
      if (unit !== null) builder.add(start + offset, unit);
    });
    onBatch?.(start, units);
  }
  return builder.finish();
}
