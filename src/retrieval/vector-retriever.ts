import type Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { Chunk, Retriever, RetrieverSearchOptions } from '../spec/chunk.js';
import { ConfidantError } from '../spec/errors.js';
import { checkK } from './check-k.js';
import type { ChunkIndex } from './chunk-index.js';
import { normalizeVector } from './cosine-similarity.js';
import { checkEmbeddings, type Embedder } from './embedder.js';
import { topKScan, type VectorMatrix } from './top-k-scan.js';

/** sqlite-vec refuses KNN queries with a larger `k`. */
export const SQLITE_VEC_MAX_K = 4096;

/** A cosine-similarity retriever over a chunk index. */
export type VectorRetriever = Retriever & {
  readonly kind: 'vector';
  readonly embedder: Embedder;
  /** Chunks with a vector; chunks whose text embeds to the zero vector cannot be ranked. */
  readonly vectorCount: number;
};

/** What the index records about its stored vectors, to know when they can be reused. */
type VectorsMeta = { embedder: string; dimension: number; chunks: number };

function loadSqliteVec(database: Database.Database): void {
  try {
    database.prepare('select vec_version()').get();
  } catch {
    sqliteVec.load(database);
  }
}

function storedMeta(database: Database.Database): VectorsMeta | undefined {
  const row = database.prepare(`select value from chunk_index_meta where key = 'vectors'`).get() as
    | { value: string }
    | undefined;
  return row === undefined ? undefined : (JSON.parse(row.value) as VectorsMeta);
}

async function buildVectors({
  index,
  embedder,
  batchSize,
  signal,
}: {
  index: ChunkIndex;
  embedder: Embedder;
  batchSize: number;
  signal: AbortSignal | undefined;
}): Promise<void> {
  const { database } = index;
  database.exec('drop table if exists chunk_vectors');
  database.exec(
    `create virtual table chunk_vectors using vec0(embedding float[${embedder.dimension}] distance_metric=cosine)`,
  );
  const insert = database.prepare('insert into chunk_vectors (rowid, embedding) values (?, ?)');
  for (let start = 0; start < index.chunks.length; start += batchSize) {
    signal?.throwIfAborted();
    const texts = index.chunks.slice(start, start + batchSize).map((chunk) => chunk.text);
    const vectors = await embedder.embed(texts, signal ? { signal } : {});
    checkEmbeddings({ embedderId: embedder.id, dimension: embedder.dimension, texts, vectors });
    database.transaction(() => {
      vectors.forEach((vector, offset) => {
        const unit = normalizeVector(vector);
        // A zero vector has no direction: cosine distance is undefined and sqlite-vec would
        // rank it arbitrarily, so such chunks stay out of the vector table.
        if (unit !== null) insert.run(BigInt(start + offset + 1), unit);
      });
    })();
  }
  const meta: VectorsMeta = { embedder: embedder.id, dimension: embedder.dimension, chunks: index.chunks.length };
  database
    .prepare(`insert or replace into chunk_index_meta (key, value) values ('vectors', ?)`)
    .run(JSON.stringify(meta));
}

/**
 * Vector retrieval: every chunk's text is embedded once (in batches of `batchSize`), scaled to
 * unit length and stored in a sqlite-vec `vec0` table in the index's database. Vectors already stored by the same embedder id for the same chunks
 * (a file-backed index) are reused instead of embedded again.
 *
 * **Search.** At creation the stored vectors are read into one contiguous Float32Array (unit
 * length, so cosine = dot product); each query is an exact scan of it with a bounded top-k heap
 * (`topKScan`), equal scores going to the earlier chunk, as in `createBruteForceRetriever`.
 * **Filter before top-k**: the filter is asked only about a chunk that would enter the current top
 * `k`, at most once per chunk and search, so the result always holds the `k` nearest chunks the
 * filter keeps (fewer only when fewer with a vector pass) and never a chunk it rejects. `k` above
 * `SQLITE_VEC_MAX_K` (4096) is still refused, as before.
 *
 * Recent query vectors are cached (32 entries), so searching the same text twice (filtered and
 * unfiltered, as access-control audits do) embeds it once.
 */
export async function createVectorRetriever({
  index,
  embedder,
  batchSize = 64,
  signal,
}: {
  index: ChunkIndex;
  embedder: Embedder;
  batchSize?: number;
  signal?: AbortSignal;
}): Promise<VectorRetriever> {
  if (!Number.isInteger(embedder.dimension) || embedder.dimension < 1) {
    throw new RangeError(`embedder ${embedder.id} has an invalid dimension ${embedder.dimension}`);
  }
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer`);
  const { database } = index;
  loadSqliteVec(database);
  const meta = storedMeta(database);
  const reusable =
    meta !== undefined &&
    meta.embedder === embedder.id &&
    meta.dimension === embedder.dimension &&
    meta.chunks === index.chunks.length &&
    database.prepare(`select 1 from sqlite_master where name = 'chunk_vectors'`).get() !== undefined;
  if (!reusable) await buildVectors({ index, embedder, batchSize, signal });

  // The stored vectors are read once into one contiguous matrix and searched by an exact
  // typed-array scan: at 100k chunks vec0's KNN query cost about 3x a plain scan of the same
  // vectors (npm run bench:retrieval), and a scan can ask the filter lazily.
  const stored = database.prepare('select rowid, embedding from chunk_vectors order by rowid').raw(true).all() as Array<
    [number | bigint, Buffer]
  >;
  const dimension = embedder.dimension;
  const matrix: VectorMatrix = {
    dimension,
    values: new Float32Array(stored.length * dimension),
    positions: new Int32Array(stored.length),
  };
  stored.forEach(([rowid, blob], row) => {
    if (blob.byteLength !== dimension * 4)
      throw new Error(`chunk index is inconsistent: vector ${String(rowid)} has ${blob.byteLength} bytes`);
    // A copy: the blob's offset in its buffer need not be 4-byte aligned.
    matrix.values.set(
      new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength)),
      row * dimension,
    );
    (matrix.positions as Int32Array)[row] = Number(rowid) - 1;
  });
  const vectorCount = stored.length;
  const queryCache = new Map<string, Float32Array | null>();

  const queryVector = async (query: string): Promise<Float32Array | null> => {
    const cached = queryCache.get(query);
    if (cached !== undefined || queryCache.has(query)) {
      queryCache.delete(query);
      queryCache.set(query, cached ?? null);
      return cached ?? null;
    }
    const vectors = await embedder.embed([query]);
    checkEmbeddings({ embedderId: embedder.id, dimension: embedder.dimension, texts: [query], vectors });
    const unit = normalizeVector(vectors[0]!);
    queryCache.set(query, unit);
    if (queryCache.size > 32) queryCache.delete(queryCache.keys().next().value as string);
    return unit;
  };

  return {
    kind: 'vector',
    embedder,
    vectorCount,
    async search({ query, k, filter }: RetrieverSearchOptions): Promise<Chunk[]> {
      checkK(k);
      if (k > SQLITE_VEC_MAX_K) {
        throw new ConfidantError(
          `vector retrieval returns at most ${SQLITE_VEC_MAX_K} chunks per query (sqlite-vec's KNN limit), got k = ${k}: lower topK`,
          { userError: true },
        );
      }
      if (k === 0 || vectorCount === 0) return [];
      const vector = await queryVector(query);
      if (vector === null) return [];
      return topKScan({ matrix, query: vector, k, chunks: index.chunks, filter }).map(
        (position) => index.chunks[position]!,
      );
    },
  };
}
