import { describe, expect, it } from 'vitest';
import { createEventRecorder } from '../runner/create-event-recorder.js';
import type { AccessContext, Chunk } from '../spec/chunk.js';
import type { Defense } from '../spec/defense.js';
import { createChunkIndex } from './chunk-index.js';
import { retrievalFilterEvents, searchWithRetrievalFilters } from './filtered-search.js';
import { createFts5Retriever } from './fts5-retriever.js';
import { makeChunk } from './testing/make-chunk.js';

const ids = (chunks: Chunk[]) => chunks.map((chunk) => chunk.id);

// "loan" appears 4, 3, 2 and 1 times, so BM25 ranks l4 > l3 > l2 > l1 > l0.
const chunks = [
  makeChunk({ id: 'l4', text: 'loan loan loan loan', secretIds: ['debt'] }),
  makeChunk({ id: 'l3', text: 'loan loan loan bank', time: '2030-01-01' }),
  makeChunk({ id: 'l2', text: 'loan loan bank visit' }),
  makeChunk({ id: 'l1', text: 'loan bank visit today' }),
  makeChunk({ id: 'l0', text: 'a loan at the bank visit today again' }),
];
const retriever = createFts5Retriever({ index: createChunkIndex({ chunks }) });
const access: AccessContext = { requesterId: 'bob', at: '2024-06-01', isAuthorized: () => false };

const noSecrets: Defense = {
  id: 'no-secrets',
  description: 'test filter',
  kind: 'retrieval-filter',
  appliesTo: ['assistant-turn'],
  filter: ({ chunk }) => chunk.provenance.secretIds.length === 0,
  explain: ({ chunk, access: context }) =>
    `secret ${chunk.provenance.secretIds.join(',')} hidden from ${context.requesterId}`,
};
const notL2: Defense = {
  id: 'not-l2',
  description: 'test filter without explain',
  kind: 'retrieval-filter',
  appliesTo: ['assistant-turn'],
  filter: ({ chunk }) => chunk.id !== 'l2',
};
const beforeNow = (chunk: Chunk) => chunk.provenance.time <= '2024-06-01T00:00:00Z';

describe('searchWithRetrievalFilters', () => {
  it('returns k chunks that pass, and lists the withheld chunks of the unfiltered top k with reasons', async () => {
    const result = await searchWithRetrievalFilters({
      retriever,
      query: 'loan',
      k: 3,
      access,
      defenses: [noSecrets, notL2],
    });
    expect(ids(result.chunks)).toEqual(['l3', 'l1', 'l0']);
    expect(result.removed).toEqual([
      {
        chunkId: 'l4',
        docId: 'doc-l4',
        secretIds: ['debt'],
        defenseId: 'no-secrets',
        reason: 'secret debt hidden from bob',
      },
      { chunkId: 'l2', docId: 'doc-l2', secretIds: [], defenseId: 'not-l2', reason: 'withheld by not-l2' },
    ]);
  });

  it('applies the base filter to both searches without reporting what it rejects', async () => {
    const result = await searchWithRetrievalFilters({
      retriever,
      query: 'loan',
      k: 2,
      access,
      defenses: [noSecrets],
      baseFilter: beforeNow,
    });
    expect(ids(result.chunks)).toEqual(['l2', 'l1']);
    expect(result.removed.map((entry) => entry.chunkId)).toEqual(['l4']);
  });

  it('runs one plain search when no retrieval filter is among the defenses', async () => {
    const prompt: Defense = {
      id: 'p',
      description: 'prompt',
      kind: 'prompt',
      appliesTo: ['assistant-turn'],
      transform: (value) => value,
    };
    const result = await searchWithRetrievalFilters({ retriever, query: 'loan', k: 2, access, defenses: [prompt] });
    expect(result).toEqual({ chunks: [chunks[0], chunks[1]], removed: [] });
  });
});

describe('retrievalFilterEvents', () => {
  it('builds one valid defense-action event per retrieval filter, naming what it removed and why', async () => {
    const defenses = [noSecrets];
    const result = await searchWithRetrievalFilters({ retriever, query: 'loan', k: 2, access, defenses });
    const recorder = createEventRecorder({ now: () => new Date('2024-06-01T00:00:00Z') });
    for (const event of retrievalFilterEvents({ result, defenses, k: 2, participantId: 'assistant' })) {
      recorder.emit(event);
    }
    expect(recorder.events).toEqual([
      {
        id: 'e1',
        time: '2024-06-01T00:00:00.000Z',
        type: 'defense-action',
        participantId: 'assistant',
        defense: 'no-secrets',
        action: 'filter',
        reason: 'withheld 1 of the top 2 chunks: l4 (secret debt hidden from bob)',
        removed: [{ chunkId: 'l4', docId: 'doc-l4', secretIds: ['debt'], reason: 'secret debt hidden from bob' }],
        returnedChunkIds: ['l3', 'l2'],
      },
    ]);
    const quiet = retrievalFilterEvents({ result: { chunks: [], removed: [] }, defenses, k: 5 });
    expect(quiet).toEqual([
      {
        type: 'defense-action',
        defense: 'no-secrets',
        action: 'filter',
        reason: 'no chunk of the top 5 needed withholding',
        removed: [],
        returnedChunkIds: [],
      },
    ]);
  });
});
