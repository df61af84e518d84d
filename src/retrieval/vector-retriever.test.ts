import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Chunk } from '../spec/chunk.js';
import { ConfidantError } from '../spec/errors.js';
import { createBruteForceRetriever } from './brute-force-retriever.js';
import { createChunkIndex, openChunkIndex } from './chunk-index.js';
import { cosineSimilarity } from './cosine-similarity.js';
import { createHashingEmbedder } from './hashing-embedder.js';
import { makeChunk } from './testing/make-chunk.js';
import { createTableEmbedder } from './testing/table-embedder.js';
import { createVectorRetriever, SQLITE_VEC_MAX_K } from './vector-retriever.js';

const ids = (chunks: Chunk[]) => chunks.map((chunk) => chunk.id);

// Unit vectors at increasing angles from the query (1, 0): v0 is nearest, v5 farthest.
const angles = [0, 10, 20, 30, 40, 50];
const table: Record<string, number[]> = { query: [1, 0], empty: [0, 0] };
const small = angles.map((degrees, position) => {
  const text = `v${position}`;
  table[text] = [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];
  return makeChunk({ id: text, text, secretIds: position % 2 === 0 ? ['s1'] : [] });
});
const noSecrets = (chunk: Chunk) => chunk.provenance.secretIds.length === 0;

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

describe('createVectorRetriever', () => {
  it('returns the k nearest chunks by cosine, nearest first', async () => {
    const retriever = await createVectorRetriever({
      index: createChunkIndex({ chunks: small }),
      embedder: createTableEmbedder({ table, dimension: 2 }),
    });
    expect(retriever.kind).toBe('vector');
    expect(retriever.vectorCount).toBe(6);
    expect(ids(await retriever.search({ query: 'query', k: 3 }))).toEqual(['v0', 'v1', 'v2']);
    expect(ids(await retriever.search({ query: 'query', k: 50 }))).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5']);
  });

  it('applies the filter before top-k: k permitted chunks come back and a filtered chunk never does', async () => {
    const retriever = await createVectorRetriever({
      index: createChunkIndex({ chunks: small }),
      embedder: createTableEmbedder({ table, dimension: 2 }),
    });
    expect(ids(await retriever.search({ query: 'query', k: 2, filter: noSecrets }))).toEqual(['v1', 'v3']);
    expect(ids(await retriever.search({ query: 'query', k: 9, filter: noSecrets }))).toEqual(['v1', 'v3', 'v5']);
    expect(await retriever.search({ query: 'query', k: 3, filter: () => false })).toEqual([]);
  });

  it('leaves zero vectors out of rankings and returns nothing for a zero query', async () => {
    const chunks = [...small, makeChunk({ id: 'blank', text: 'empty' })];
    const retriever = await createVectorRetriever({
      index: createChunkIndex({ chunks }),
      embedder: createTableEmbedder({ table, dimension: 2 }),
    });
    expect(retriever.vectorCount).toBe(6);
    expect(ids(await retriever.search({ query: 'query', k: 10 }))).not.toContain('blank');
    expect(await retriever.search({ query: 'empty', k: 3 })).toEqual([]);
  });

  it('embeds the corpus once, caches query vectors, and reuses vectors stored in an index file', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'confidant-vector-'));
    directories.push(directory);
    const path = join(directory, 'index.sqlite');
    const first = createTableEmbedder({ table, dimension: 2 });
    const index = createChunkIndex({ chunks: small, path });
    const retriever = await createVectorRetriever({ index, embedder: first, batchSize: 4 });
    expect(first.calls).toEqual([
      ['v0', 'v1', 'v2', 'v3'],
      ['v4', 'v5'],
    ]);
    await retriever.search({ query: 'query', k: 1 });
    await retriever.search({ query: 'query', k: 2, filter: noSecrets });
    expect(first.calls).toHaveLength(3);
    index.close();

    const again = createTableEmbedder({ table, dimension: 2 });
    const reopened = openChunkIndex({ path });
    const reused = await createVectorRetriever({ index: reopened, embedder: again });
    expect(again.calls).toEqual([]);
    expect(ids(await reused.search({ query: 'query', k: 2 }))).toEqual(['v0', 'v1']);

    const other = createTableEmbedder({ table, dimension: 2, id: 'another-model' });
    await createVectorRetriever({ index: reopened, embedder: other });
    expect(other.calls).toEqual([['v0', 'v1', 'v2', 'v3', 'v4', 'v5']]);
    reopened.close();
  });

  it('holds the vectors once: one Float32Array shared by the retrievers of an index, none in SQLite', async () => {
    const index = createChunkIndex({ chunks: small });
    const first = createTableEmbedder({ table, dimension: 2 });
    const retriever = await createVectorRetriever({ index, embedder: first });
    const { matrix } = retriever;
    expect(matrix.values).toBeInstanceOf(Float32Array);
    expect(matrix.values.length).toBe(6 * 2);
    expect([...matrix.positions]).toEqual([0, 1, 2, 3, 4, 5]);
    // No per-chunk arrays of numbers anywhere on the retriever or its matrix.
    for (const value of [...Object.values(retriever), ...Object.values(matrix)]) {
      expect(Array.isArray(value)).toBe(false);
    }
    // An in-memory index keeps no second copy in a vec0 table.
    expect(index.database.prepare(`select name from sqlite_master where name like 'chunk_vectors%'`).all()).toEqual([]);
    const second = createTableEmbedder({ table, dimension: 2 });
    const other = await createVectorRetriever({ index, embedder: second });
    expect(other.matrix).toBe(matrix);
    expect(second.calls).toEqual([]);
    expect(ids(await other.search({ query: 'query', k: 2 }))).toEqual(['v0', 'v1']);
    expect(second.calls).toEqual([['query']]);
    // Another embedder id gets its own vectors.
    const third = createTableEmbedder({ table, dimension: 2, id: 'another-model' });
    expect((await createVectorRetriever({ index, embedder: third })).matrix).not.toBe(matrix);
  });

  it('refuses k above the sqlite-vec limit and vectors of the wrong size', async () => {
    const retriever = await createVectorRetriever({
      index: createChunkIndex({ chunks: small }),
      embedder: createTableEmbedder({ table, dimension: 2 }),
    });
    const error = await retriever
      .search({ query: 'query', k: SQLITE_VEC_MAX_K + 1 })
      .catch((caught: unknown) => caught);
    expect(ConfidantError.isInstance(error) && error.userError).toBe(true);
    expect((error as Error).message).toContain('at most 4096 chunks per query');
    await expect(
      createVectorRetriever({
        index: createChunkIndex({ chunks: small }),
        embedder: createTableEmbedder({ table, dimension: 3 }),
      }),
    ).rejects.toThrow('returned a vector of 2 numbers for text 0; expected 3');
  });
});

describe('createVectorRetriever against the brute-force cosine reference', () => {
  const embedder = createHashingEmbedder();
  const topics = ['rent', 'doctor', 'salary', 'garden', 'concert', 'divorce', 'tax', 'holiday'];
  const chunks = Array.from({ length: 400 }, (_, position) =>
    makeChunk({
      id: `c${position}`,
      text: `${topics[position % 8]} ${topics[(position * 3) % 8]} note ${position} about ${topics[(position * 5) % 8]}`,
      secretIds: position % 3 === 0 ? [`s${position % 7}`] : [],
    }),
  );

  /** Cosine similarity of each chunk to the query, rounded so float noise cannot differ. */
  async function similarities(query: string, found: Chunk[]): Promise<number[]> {
    const [queryVector, ...vectors] = await embedder.embed([query, ...found.map((chunk) => chunk.text)]);
    return vectors.map((vector) => Math.round(cosineSimilarity(queryVector!, vector)! * 1e5) / 1e5);
  }

  it('gives exactly the reference similarities, with and without a filter', async () => {
    const vector = await createVectorRetriever({ index: createChunkIndex({ chunks }), embedder });
    const reference = await createBruteForceRetriever({ chunks, embedder });
    // The corpus repeats topic combinations, so equal similarities (ties) are common: the
    // chunks at a tie may differ between the two, their similarities may not.
    for (const query of ['doctor salary', 'garden concert note 17', 'tax holiday divorce']) {
      for (const k of [1, 5, 20]) {
        const plain = await vector.search({ query, k });
        expect(plain).toHaveLength(k);
        expect(await similarities(query, plain)).toEqual(
          await similarities(query, await reference.search({ query, k })),
        );
        const filtered = await vector.search({ query, k, filter: noSecrets });
        expect(filtered).toHaveLength(k);
        expect(await similarities(query, filtered)).toEqual(
          await similarities(query, await reference.search({ query, k, filter: noSecrets })),
        );
        for (const chunk of filtered) expect(chunk.provenance.secretIds).toEqual([]);
        // One chunk in 20 passes: the first over-fetch (32) is short, the sized second one is not.
        const rare = (chunk: Chunk) => Number(chunk.id.slice(1)) % 20 === 0;
        const few = await vector.search({ query, k, filter: rare });
        expect(few).toHaveLength(k);
        expect(await similarities(query, few)).toEqual(
          await similarities(query, await reference.search({ query, k, filter: rare })),
        );
      }
    }
  });

  it('finds the k nearest permitted chunks when the 4096 nearest are all rejected', async () => {
    // 5000 chunks close to the query, all rejected, and 10 far-off chunks, all permitted.
    const near = Array.from({ length: 5000 }, (_, position) =>
      makeChunk({ id: `n${position}`, text: `alpha beta ${position}`, secretIds: ['s1'] }),
    );
    const far = Array.from({ length: 10 }, (_, position) =>
      // More "zeta" means less similar to the query, so the ten have distinct similarities.
      makeChunk({ id: `f${position}`, text: `alpha ${'zeta '.repeat(position + 1)}` }),
    );
    const all = [...near, ...far];
    const vector = await createVectorRetriever({ index: createChunkIndex({ chunks: all }), embedder });
    const reference = await createBruteForceRetriever({ chunks: all, embedder });
    let calls = 0;
    const counted = (chunk: Chunk) => {
      calls++;
      return noSecrets(chunk);
    };
    const result = await vector.search({ query: 'alpha beta', k: 4, filter: counted });
    expect(result).toHaveLength(4);
    expect(ids(result)).toEqual(ids(await reference.search({ query: 'alpha beta', k: 4, filter: noSecrets })));
    expect(ids(result)).toEqual(['f0', 'f1', 'f2', 'f3']);
    // Asked once per chunk that could enter the top 4: all 5000 near ones and f0…f3; f4…f9
    // rank below a full top 4 and are never asked.
    expect(calls).toBe(5004);
  });
});
