import { describe, expect, it } from 'vitest';
import type { Chunk } from '../spec/chunk.js';
import { createChunkIndex } from './chunk-index.js';
import { createFts5Retriever } from './fts5-retriever.js';
import { makeChunk } from './testing/make-chunk.js';

const ids = (chunks: Chunk[]) => chunks.map((chunk) => chunk.id);

// "biopsy" appears 3 times in b1, twice in b2, once in b3-b6; BM25 ranks them in that order
// (shorter chunks first among equal counts). s1 marks the secret-bearing chunks.
const chunks = [
  makeChunk({ id: 'b1', text: 'biopsy biopsy biopsy results came back', secretIds: ['s1'] }),
  makeChunk({ id: 'b2', text: 'biopsy biopsy booked for monday', secretIds: ['s1'] }),
  makeChunk({ id: 'b3', text: 'the biopsy clinic', secretIds: [] }),
  makeChunk({ id: 'b4', text: 'a biopsy clinic parking lot', secretIds: [] }),
  makeChunk({ id: 'b5', text: 'parking near the biopsy clinic was hard', secretIds: [] }),
  makeChunk({ id: 'b6', text: 'we talked about the biopsy clinic parking and the rain', secretIds: ['s2'] }),
  makeChunk({ id: 'n1', text: 'pizza on friday night', secretIds: [] }),
];

describe('createFts5Retriever', () => {
  const index = createChunkIndex({ chunks });
  const retriever = createFts5Retriever({ index });

  it('ranks by BM25, best first, and returns at most k chunks', async () => {
    expect(retriever.kind).toBe('bm25');
    expect(ids(await retriever.search({ query: 'biopsy', k: 3 }))).toEqual(['b1', 'b2', 'b3']);
    expect(ids(await retriever.search({ query: 'Biopsy?', k: 10 }))).toEqual(['b1', 'b2', 'b3', 'b4', 'b5', 'b6']);
    expect(ids(await retriever.search({ query: 'pizza friday', k: 5 }))).toEqual(['n1']);
  });

  it('applies the filter before top-k: k permitted chunks come back and a filtered chunk never does', async () => {
    const seen: string[] = [];
    const noSecrets = (chunk: Chunk) => {
      seen.push(chunk.id);
      return chunk.provenance.secretIds.length === 0;
    };
    const result = await retriever.search({ query: 'biopsy', k: 3, filter: noSecrets });
    expect(ids(result)).toEqual(['b3', 'b4', 'b5']);
    // The walk stops at the k-th permitted chunk: b6 was never even looked at.
    expect(seen).toEqual(['b1', 'b2', 'b3', 'b4', 'b5']);
    const all = await retriever.search({ query: 'biopsy clinic parking results', k: 50, filter: noSecrets });
    expect(ids(all).sort()).toEqual(['b3', 'b4', 'b5']);
    for (const chunk of all) expect(chunk.provenance.secretIds).toEqual([]);
  });

  it('returns fewer than k only when fewer matching chunks pass', async () => {
    expect(await retriever.search({ query: 'biopsy', k: 3, filter: () => false })).toEqual([]);
    expect(ids(await retriever.search({ query: 'biopsy', k: 3, filter: (chunk) => chunk.id === 'b6' }))).toEqual([
      'b6',
    ]);
  });

  it('matches nothing for text without words, and k = 0 returns nothing', async () => {
    expect(await retriever.search({ query: '"*" () ^', k: 5 })).toEqual([]);
    expect(await retriever.search({ query: 'biopsy', k: 0 })).toEqual([]);
    await expect(retriever.search({ query: 'biopsy', k: -1 })).rejects.toThrow(RangeError);
    await expect(retriever.search({ query: 'biopsy', k: 1.5 })).rejects.toThrow('k must be a non-negative integer');
  });

  it('survives FTS5 syntax in the query text', async () => {
    expect(ids(await retriever.search({ query: 'biopsy" OR (', k: 1 }))).toEqual(['b1']);
    // NEAR is an ordinary word here, and b5 is the one chunk that contains it.
    expect(ids(await retriever.search({ query: 'NEAR(', k: 3 }))).toEqual(['b5']);
    expect(ids(await retriever.search({ query: 'text: pizza*', k: 2 }))).toEqual(['n1']);
  });

  it('breaks score ties by row id, so equal chunks come back in index order', async () => {
    const twins = createChunkIndex({
      chunks: [makeChunk({ id: 't2', text: 'same words' }), makeChunk({ id: 't1', text: 'same words' })],
    });
    expect(ids(await createFts5Retriever({ index: twins }).search({ query: 'same', k: 2 }))).toEqual(['t2', 't1']);
    twins.close();
  });
});
