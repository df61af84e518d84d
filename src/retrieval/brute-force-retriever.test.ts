import { describe, expect, it } from 'vitest';
import type { Chunk } from '../spec/chunk.js';
import { createBruteForceRetriever } from './brute-force-retriever.js';
import { makeChunk } from './testing/make-chunk.js';
import { createTableEmbedder } from './testing/table-embedder.js';

const ids = (chunks: Chunk[]) => chunks.map((chunk) => chunk.id);

describe('createBruteForceRetriever', () => {
  const table = { q: [1, 0], a: [0.9, 0.1], b: [0.5, 0.5], c: [0.1, 0.9], twin: [0.5, 0.5], none: [0, 0] };
  const chunks = ['c', 'b', 'a', 'twin', 'none'].map((text) =>
    makeChunk({ id: text, text, secretIds: text === 'a' ? ['s'] : [] }),
  );

  it('ranks every chunk by cosine, ties to the earlier chunk, zero vectors never', async () => {
    const retriever = await createBruteForceRetriever({
      chunks,
      embedder: createTableEmbedder({ table, dimension: 2 }),
      batchSize: 2,
    });
    expect(retriever.kind).toBe('brute-force');
    expect(ids(await retriever.search({ query: 'q', k: 10 }))).toEqual(['a', 'b', 'twin', 'c']);
    expect(ids(await retriever.search({ query: 'q', k: 2 }))).toEqual(['a', 'b']);
    expect(await retriever.search({ query: 'none', k: 2 })).toEqual([]);
    expect(await retriever.search({ query: 'q', k: 0 })).toEqual([]);
  });

  it('filters before taking the top k', async () => {
    const retriever = await createBruteForceRetriever({
      chunks,
      embedder: createTableEmbedder({ table, dimension: 2 }),
    });
    const result = await retriever.search({
      query: 'q',
      k: 2,
      filter: (chunk) => chunk.provenance.secretIds.length === 0,
    });
    expect(ids(result)).toEqual(['b', 'twin']);
  });
});
