import type Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { Chunk, Retriever, RetrieverSearchOptions } from '../spec/chunk.js';
import { ConfidantError } from '../spec/errors.js';
import { checkK } from './check-k.js';
import type { ChunkIndex } from './chunk-index.js';
import { normalizeVector } from './cosine-similarity.js';
import { checkEmbeddings, type Embedder } from './embedder.js';

/** sqlite-vec refuses KNN queries with a larger `k`. */
export const SQLITE_VEC_MAX_K = 4096;

/** A filtered search's second KNN fetch may be at most this many times its first. */
const SECOND_FETCH_FACTOR = 8;

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
 * Vector retrieval with sqlite-vec: every chunk's text is embedded once (in batches of
 * `batchSize`), scaled to unit length and stored in a `vec0` table with cosine distance in the
 * index's database; queries are exact KNN (`embedding match ? and k = ?`, rowids as BigInt,
 * vectors as Float32Array). Vectors already stored by the same embedder id for the same chunks
 * (a file-backed index) are reused instead of embedded again.
 *
 * **Filter before top-k.** vec0 cannot run a JavaScript predicate, so a filtered search runs in
 * two stages, both exact:
 * 1. Over-fetch: take the nearest `max(4k, 32)` chunks, walk them nearest first and keep those
 *    that pass. If fewer than `k` pass but some did, fetch once more, sized from the pass rate
 *    (with 50% headroom), provided that is at most 8× the first fetch. Filter decisions are
 *    memoised, so the filter sees each chunk once. Because the walk follows the true ranking,
 *    the kept chunks are the `k` nearest permitted ones.
 * 2. Otherwise (nothing passed, a strict filter, or sqlite-vec's KNN ceiling of
 *    `SQLITE_VEC_MAX_K` = 4096 rows), the filter is run over every chunk and KNN is repeated
 *    restricted to the permitted row ids (`rowid in (…)`), which is exact as well. sqlite-vec's
 *    KNN cost grows with k, so this beats fetching thousands of neighbours.
 * A permissive filter thus costs one KNN query; a strict one one scan of the chunk list plus one
 * restricted KNN query.
 * The result always holds the `k` nearest chunks the filter keeps (fewer only when fewer with a
 * vector pass) and never a chunk it rejects. `k` above 4096 is refused.
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

  const vectorRowids = (
    database.prepare('select rowid from chunk_vectors order by rowid').raw(true).all() as number[][]
  ).map((row) => Number(row[0]));
  const vectorCount = vectorRowids.length;
  const knn = database
    .prepare('select rowid, distance from chunk_vectors where embedding match ? and k = ? order by distance')
    .raw(true);
  const knnWithin = database
    .prepare(
      `select rowid, distance from chunk_vectors where embedding match ? and k = ?
       and rowid in (select value from json_each(?)) order by distance`,
    )
    .raw(true);
  // vec0 returns equal distances in no stated order; sorting ties by row id makes the order
  // within a result reproducible and equal to the brute-force reference's.
  const nearest = (vector: Float32Array, k: number, within?: readonly number[]): number[] => {
    const rows = (within ? knnWithin.all(vector, k, JSON.stringify(within)) : knn.all(vector, k)) as Array<
      [number, number]
    >;
    return rows
      .map(([rowid, distance]) => ({ rowid: Number(rowid), distance }))
      .sort((left, right) => left.distance - right.distance || left.rowid - right.rowid)
      .map(({ rowid }) => rowid);
  };
  const queryCache = new Map<string, Float32Array | null>();

  const chunkAt = (rowid: unknown): Chunk => {
    const chunk = index.chunkAt(Number(rowid));
    if (chunk === undefined) throw new Error(`chunk index is inconsistent: no chunk at row ${String(rowid)}`);
    return chunk;
  };
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
      if (!filter) return nearest(vector, Math.min(k, vectorCount)).map(chunkAt);

      const decisions = new Map<number, boolean>();
      const passes = (rowid: number): boolean => {
        let decision = decisions.get(rowid);
        if (decision === undefined) {
          decision = filter(chunkAt(rowid));
          decisions.set(rowid, decision);
        }
        return decision;
      };
      const first = Math.min(vectorCount, SQLITE_VEC_MAX_K, Math.max(4 * k, 32));
      let fetch = first;
      for (let attempt = 1; attempt <= 2; attempt++) {
        const kept: Chunk[] = [];
        for (const rowid of nearest(vector, fetch)) {
          if (!passes(rowid)) continue;
          kept.push(chunkAt(rowid));
          if (kept.length === k) return kept;
        }
        if (fetch === vectorCount) return kept;
        // One more, wider fetch only when the pass rate seen so far says it will be modest:
        // KNN cost grows with k, so past that the permitted-rowid search is cheaper.
        const wanted = kept.length === 0 ? Number.POSITIVE_INFINITY : Math.ceil(((k * fetch) / kept.length) * 1.5);
        if (attempt === 2 || wanted > SECOND_FETCH_FACTOR * first || fetch === SQLITE_VEC_MAX_K) break;
        fetch = Math.min(vectorCount, SQLITE_VEC_MAX_K, wanted);
      }
      const permitted = vectorRowids.filter(passes);
      if (permitted.length === 0) return [];
      return nearest(vector, Math.min(k, permitted.length), permitted).map(chunkAt);
    },
  };
}
