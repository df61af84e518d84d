import type Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { Chunk, Retriever, RetrieverSearchOptions } from '../spec/chunk.js';
import { ConfidantError } from '../spec/errors.js';
import { checkK } from './check-k.js';
import type { ChunkIndex } from './chunk-index.js';
import { normalizeVector } from './cosine-similarity.js';
import { embedVectorMatrix } from './embed-vector-matrix.js';
import { checkEmbeddings, type Embedder } from './embedder.js';
import { topKScan } from './top-k-scan.js';
import { createVectorMatrixBuilder, type VectorMatrix } from './vector-matrix.js';

/** sqlite-vec refuses KNN queries with a larger `k`. */
export const SQLITE_VEC_MAX_K = 4096;

/** A cosine-similarity retriever over a chunk index. */
export type VectorRetriever = Retriever & {
  readonly kind: 'vector';
  readonly embedder: Embedder;
  /** Chunks with a vector; chunks whose text embeds to the zero vector cannot be ranked. */
  readonly vectorCount: number;
  /** The unit vectors searched, shared by every retriever over the same index and embedder. */
  readonly matrix: VectorMatrix;
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

/** Vectors already read or embedded, per index and embedder (id and dimension), shared by its retrievers. */
const sharedMatrices = new WeakMap<ChunkIndex, Map<string, Promise<VectorMatrix>>>();

/** Where a retriever's matrix comes from, and how to embed it when it must be. */
type MatrixSource = { index: ChunkIndex; embedder: Embedder; batchSize: number; signal: AbortSignal | undefined };

function matrixOf({ index, embedder, batchSize, signal }: MatrixSource): Promise<VectorMatrix> {
  let byEmbedder = sharedMatrices.get(index);
  if (byEmbedder === undefined) {
    byEmbedder = new Map();
    sharedMatrices.set(index, byEmbedder);
  }
  const key = JSON.stringify([embedder.id, embedder.dimension]);
  const known = byEmbedder.get(key);
  if (known !== undefined) return known;
  const built =
    index.path === ':memory:'
      ? embedVectorMatrix({ chunks: index.chunks, embedder, batchSize, signal })
      : storedMatrix({ index, embedder, batchSize, signal });
  byEmbedder.set(key, built);
  // A failed or aborted build is forgotten, so the next retriever tries again.
  built.catch(() => byEmbedder.delete(key));
  return built;
}

/**
 * The matrix of a file-backed index: read from its `chunk_vectors` (vec0) table when that holds
 * this embedder's vectors for these chunks, else embedded and written there as it goes, so the
 * file can be reopened without embedding again. SQLite keeps the table on disk (its page cache
 * is bounded), so the matrix is the only copy in memory.
 */
async function storedMatrix({ index, embedder, batchSize, signal }: MatrixSource): Promise<VectorMatrix> {
  const { database, chunks } = index;
  const { dimension } = embedder;
  loadSqliteVec(database);
  const meta = storedMeta(database);
  const reusable =
    meta !== undefined &&
    meta.embedder === embedder.id &&
    meta.dimension === dimension &&
    meta.chunks === chunks.length &&
    database.prepare(`select 1 from sqlite_master where name = 'chunk_vectors'`).get() !== undefined;
  if (reusable) {
    const builder = createVectorMatrixBuilder({ dimension, capacity: chunks.length });
    const rows = database.prepare('select rowid, embedding from chunk_vectors order by rowid').raw(true);
    for (const [rowid, blob] of rows.iterate() as IterableIterator<[number | bigint, Buffer]>) {
      const position = Number(rowid) - 1;
      if (blob.byteLength !== dimension * 4 || position < 0 || position >= chunks.length) {
        throw new Error(`chunk index is inconsistent: vector ${String(rowid)} does not fit the index`);
      }
      // A copy only when the blob is not 4-byte aligned in its buffer.
      const vector =
        blob.byteOffset % 4 === 0
          ? new Float32Array(blob.buffer, blob.byteOffset, dimension)
          : new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
      builder.add(position, vector);
    }
    return builder.finish();
  }
  database.exec('drop table if exists chunk_vectors');
  database.exec(`create virtual table chunk_vectors using vec0(embedding float[${dimension}] distance_metric=cosine)`);
  const insert = database.prepare('insert into chunk_vectors (rowid, embedding) values (?, ?)');
  const matrix = await embedVectorMatrix({
    chunks,
    embedder,
    batchSize,
    signal,
    onBatch: (start, units) =>
      database.transaction(() => {
        units.forEach((unit, offset) => {
          if (unit !== null) insert.run(BigInt(start + offset + 1), unit);
        });
      })(),
  });
  const written: VectorsMeta = { embedder: embedder.id, dimension, chunks: chunks.length };
  database
    .prepare(`insert or replace into chunk_index_meta (key, value) values ('vectors', ?)`)
    .run(JSON.stringify(written));
  return matrix;
}

/**
 * Vector retrieval: every chunk's text is embedded once (in batches of `batchSize`) and scaled to
 * unit length, straight into one contiguous `VectorMatrix` (a Float32Array), the only copy of the
 * vectors in memory. It is shared by every retriever over the same index and embedder (id and
 * dimension), so a second retriever embeds nothing but its queries. An in-memory index keeps no
 * vectors in SQLite; a file-backed index also writes them to a sqlite-vec `vec0` table on disk and
 * reuses vectors stored there by the same embedder for the same chunks instead of embedding again.
 *
 * **Search.** Each query is an exact scan of the matrix (cosine = dot product of unit vectors,
 * scored by a WebAssembly SIMD kernel) with a bounded top-k heap (`topKScan`), equal scores going
 * to the earlier chunk, as in `createBruteForceRetriever`.
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
  const matrix = await matrixOf({ index, embedder, batchSize, signal });
  const vectorCount = matrix.positions.length;
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
    matrix,
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
