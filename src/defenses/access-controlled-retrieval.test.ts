import { describe, expect, it } from 'vitest';
import { answerTaskPrompt } from '../agents/prompted-responder.js';
import { freeTextPrompt } from '../orchestration/testing/task-prompt-fixtures.js';
import { createChunkIndex } from '../retrieval/chunk-index.js';
import { retrievalFilterEvents } from '../retrieval/filtered-search.js';
import { createFts5Retriever } from '../retrieval/fts5-retriever.js';
import { createHashingEmbedder } from '../retrieval/hashing-embedder.js';
import { makeChunk } from '../retrieval/testing/make-chunk.js';
import { createVectorRetriever } from '../retrieval/vector-retriever.js';
import { createEventRecorder } from '../runner/create-event-recorder.js';
import { scriptedModelRoles } from '../runner/testing/scripted-model-roles.js';
import type { AccessContext, Chunk } from '../spec/chunk.js';
import { PlanValidationError } from '../spec/errors.js';
import {
  accessControlledRetrievalDefense,
  createAccessControlledRetrieval,
  decideChunkAccess,
  searchWithAccessControl,
} from './access-controlled-retrieval.js';
import { privacyPromptDefense } from './privacy-prompt.js';
import { resolveDefense } from './registry.js';

/**
 * A tiny community: ana owns every secret. `rash` was shared with bob on 2024-03-01, `debt`
 * with the book club (bob a member then) on 2024-02-01, `panic` only with the AI (dark).
 */
const sharing: Record<string, { owner: string; confidants: string[]; sharedAt: string }> = {
  rash: { owner: 'ana', confidants: ['bob'], sharedAt: '2024-03-01' },
  debt: { owner: 'ana', confidants: ['bob', 'cai'], sharedAt: '2024-02-01' },
  panic: { owner: 'ana', confidants: [], sharedAt: '2024-01-10' },
};
function accessFor(requesterId: string, at = '2024-06-01T12:00:00Z'): AccessContext {
  return {
    requesterId,
    at,
    isAuthorized: (secretId) => {
      const secret = sharing[secretId];
      if (!secret) return false;
      return secret.owner === requesterId || (secret.confidants.includes(requesterId) && secret.sharedAt <= at);
    },
  };
}

const plain = makeChunk({ id: 'plain', text: 'x', ownerId: 'ana', participants: ['ana', 'dee'] });
const rashChat = makeChunk({
  id: 'rash',
  text: 'x',
  ownerId: 'ana',
  participants: ['ana', 'bob'],
  secretIds: ['rash'],
});
const mixed = makeChunk({
  id: 'mixed',
  text: 'x',
  ownerId: 'ana',
  participants: ['ana', 'bob'],
  secretIds: ['rash', 'panic'],
});
const aiChat = makeChunk({
  id: 'ai',
  text: 'x',
  docType: 'ai-chat',
  ownerId: 'ana',
  participants: ['ana'],
  secretIds: ['panic'],
});
const aiSmallTalk = makeChunk({ id: 'ai-plain', text: 'x', docType: 'ai-chat', ownerId: 'ana', participants: ['ana'] });
const blog = makeChunk({ id: 'blog', text: 'x', docType: 'blog', ownerId: 'ana', participants: ['ana'] });
const future = makeChunk({ id: 'future', text: 'x', time: '2024-07-01', ownerId: 'ana', participants: ['ana', 'bob'] });

const visibleTo = (chunk: Chunk, access: AccessContext, policy?: 'secret-acl' | 'participants') =>
  decideChunkAccess({ chunk, access, ...(policy ? { policy } : {}) }).visible;

describe('decideChunkAccess (secret-acl, the default)', () => {
  it('shows chunks without secrets to anyone, including owner-only AI small talk', () => {
    expect(visibleTo(plain, accessFor('eve'))).toBe(true);
    expect(visibleTo(aiSmallTalk, accessFor('eve'))).toBe(true);
    expect(visibleTo(blog, accessFor('eve'))).toBe(true);
  });

  it('requires authorization for every secret the chunk carries', () => {
    expect(visibleTo(rashChat, accessFor('bob'))).toBe(true);
    expect(decideChunkAccess({ chunk: rashChat, access: accessFor('eve') })).toEqual({
      visible: false,
      rule: 'unauthorized-secret',
      unauthorizedSecretIds: ['rash'],
      reason: 'carries secret rash, not authorized for eve',
    });
    // bob knows rash but not the dark secret panic: one unauthorized secret is enough.
    expect(decideChunkAccess({ chunk: mixed, access: accessFor('bob') })).toMatchObject({
      visible: false,
      unauthorizedSecretIds: ['panic'],
    });
    expect(decideChunkAccess({ chunk: mixed, access: accessFor('eve') })).toMatchObject({
      reason: 'carries secrets rash, panic, not authorized for eve',
    });
  });

  it("shows the owner's own AI chats to the owner and to nobody else", () => {
    expect(visibleTo(aiChat, accessFor('ana'))).toBe(true);
    expect(visibleTo(aiChat, accessFor('bob'))).toBe(false);
    expect(visibleTo(mixed, accessFor('ana'))).toBe(true);
  });

  it('follows the sharing time: not authorized before the share, hidden if dated after now', () => {
    expect(visibleTo(rashChat, accessFor('bob', '2024-02-15'))).toBe(false);
    expect(visibleTo(rashChat, accessFor('bob', '2024-03-01'))).toBe(true);
    expect(decideChunkAccess({ chunk: future, access: accessFor('bob') })).toEqual({
      visible: false,
      rule: 'after-conversation-time',
      unauthorizedSecretIds: [],
      reason: 'dated 2024-07-01, after the conversation time 2024-06-01T12:00:00Z',
    });
  });

  it('compares dates and date-times as UTC instants, and fails closed on unreadable times', () => {
    const at = (time: string) => makeChunk({ id: 't', text: 'x', time });
    expect(visibleTo(at('2024-06-01'), accessFor('eve', '2024-06-01'))).toBe(true);
    expect(visibleTo(at('2024-06-01T00:00:01'), accessFor('eve', '2024-06-01'))).toBe(false);
    expect(visibleTo(at('2024-06-01T10:00:00+02:00'), accessFor('eve', '2024-06-01T08:00:00Z'))).toBe(true);
    expect(decideChunkAccess({ chunk: at('someday'), access: accessFor('eve') })).toMatchObject({
      visible: false,
      reason: "its time 'someday' is not an ISO date",
    });
    expect(() => decideChunkAccess({ chunk: plain, access: accessFor('eve', 'soon') })).toThrow(
      "the conversation time 'soon' is not an ISO date",
    );
  });
});

describe('decideChunkAccess (participants)', () => {
  it('also requires taking part in the document, except for blogs', () => {
    expect(visibleTo(aiSmallTalk, accessFor('eve'), 'participants')).toBe(false);
    expect(visibleTo(plain, accessFor('bob'), 'participants')).toBe(false);
    expect(visibleTo(plain, accessFor('dee'), 'participants')).toBe(true);
    expect(visibleTo(blog, accessFor('eve'), 'participants')).toBe(true);
    expect(visibleTo(aiChat, accessFor('ana'), 'participants')).toBe(true);
    expect(decideChunkAccess({ chunk: aiSmallTalk, access: accessFor('eve'), policy: 'participants' })).toEqual({
      visible: false,
      rule: 'not-a-participant',
      unauthorizedSecretIds: [],
      reason: 'eve took no part in this ai-chat document',
    });
  });
});

describe('the acr defense', () => {
  it('is a retrieval filter for assistant turns, resolved by id, alias and policy', () => {
    expect(accessControlledRetrievalDefense).toMatchObject({
      id: 'access-controlled-retrieval',
      kind: 'retrieval-filter',
      appliesTo: ['assistant-turn'],
      policy: 'secret-acl',
    });
    expect(resolveDefense({ id: 'acr', taskKind: 'assistant-turn' })).toBe(accessControlledRetrievalDefense);
    expect(resolveDefense({ id: 'access-controlled-retrieval:secret-acl', taskKind: 'assistant-turn' })).toBe(
      accessControlledRetrievalDefense,
    );
    expect(resolveDefense({ id: 'acr:participants', taskKind: 'assistant-turn' })).toMatchObject({
      id: 'access-controlled-retrieval:participants',
      policy: 'participants',
    });
    expect(() => resolveDefense({ id: 'acr:everyone', taskKind: 'assistant-turn' })).toThrow(PlanValidationError);
    expect(() => resolveDefense({ id: 'acr', taskKind: 'final-action' })).toThrow(
      "defense 'acr' does not apply to final-action tasks",
    );
  });

  it('filters and explains through the Defense interface', () => {
    const defense = createAccessControlledRetrieval();
    expect(defense.filter({ chunk: rashChat, access: accessFor('bob') })).toBe(true);
    expect(defense.filter({ chunk: rashChat, access: accessFor('eve') })).toBe(false);
    expect(defense.explain?.({ chunk: rashChat, access: accessFor('eve') })).toBe(
      'carries secret rash, not authorized for eve',
    );
  });

  it('composes with privacy-prompt: the responder ignores it and only the prompt defense acts on the prompt', async () => {
    const { factory } = scriptedModelRoles({ respond: () => 'hi', roles: ['agent'] });
    const recorder = createEventRecorder();
    const models = factory({ sampleId: 's', epoch: 1, emit: recorder.emit, signal: new AbortController().signal });
    const answer = await answerTaskPrompt({
      prompt: freeTextPrompt(),
      defenses: [accessControlledRetrievalDefense, privacyPromptDefense],
      models,
      emit: recorder.emit,
    });
    expect(answer.text).toBe('hi');
    const actions = recorder.events.filter((event) => event.type === 'defense-action');
    expect(actions.map((event) => event.defense)).toEqual(['privacy-prompt']);
  });
});

describe('searchWithAccessControl', () => {
  // "clinic" appears 4, 3, 2, 1 times: BM25 ranks c-rash > c-panic > c-plain > c-blog.
  const corpus = [
    makeChunk({
      id: 'c-rash',
      text: 'clinic clinic clinic clinic rash',
      participants: ['ana', 'bob'],
      secretIds: ['rash'],
      docId: 'chat-1',
    }),
    makeChunk({
      id: 'c-panic',
      text: 'clinic clinic clinic panic',
      docType: 'ai-chat',
      participants: ['ana'],
      secretIds: ['panic'],
      docId: 'ai-1',
    }),
    makeChunk({ id: 'c-plain', text: 'clinic clinic parking', participants: ['ana', 'dee'], docId: 'chat-2' }),
    makeChunk({ id: 'c-blog', text: 'clinic opening hours', docType: 'blog', participants: ['ana'], docId: 'blog-1' }),
  ];

  it('returns k permitted chunks and names what it removed, for one defense-action event per turn', async () => {
    const retriever = createFts5Retriever({ index: createChunkIndex({ chunks: corpus }) });
    const result = await searchWithAccessControl({ retriever, query: 'clinic', k: 2, access: accessFor('eve') });
    expect(result.chunks.map((chunk) => chunk.id)).toEqual(['c-plain', 'c-blog']);
    expect(result.removed).toEqual([
      {
        chunkId: 'c-rash',
        docId: 'chat-1',
        secretIds: ['rash'],
        defenseId: 'access-controlled-retrieval',
        reason: 'carries secret rash, not authorized for eve',
      },
      {
        chunkId: 'c-panic',
        docId: 'ai-1',
        secretIds: ['panic'],
        defenseId: 'access-controlled-retrieval',
        reason: 'carries secret panic, not authorized for eve',
      },
    ]);
    const recorder = createEventRecorder();
    for (const event of retrievalFilterEvents({ result, defenses: [accessControlledRetrievalDefense], k: 2 })) {
      recorder.emit(event);
    }
    expect(recorder.events).toHaveLength(1);
    expect(recorder.events[0]).toMatchObject({
      type: 'defense-action',
      defense: 'access-controlled-retrieval',
      action: 'filter',
      reason:
        'withheld 2 of the top 2 chunks: c-rash (carries secret rash, not authorized for eve); c-panic (carries secret panic, not authorized for eve)',
      returnedChunkIds: ['c-plain', 'c-blog'],
    });
  });

  it('keeps authorized chunks for authorized requesters (bob knows rash, not panic)', async () => {
    const retriever = createFts5Retriever({ index: createChunkIndex({ chunks: corpus }) });
    const result = await searchWithAccessControl({ retriever, query: 'clinic', k: 2, access: accessFor('bob') });
    expect(result.chunks.map((chunk) => chunk.id)).toEqual(['c-rash', 'c-plain']);
    expect(result.removed.map((entry) => entry.chunkId)).toEqual(['c-panic']);
  });

  it('applies the participants policy and a base date filter', async () => {
    const retriever = createFts5Retriever({ index: createChunkIndex({ chunks: corpus }) });
    const result = await searchWithAccessControl({
      retriever,
      query: 'clinic',
      k: 3,
      access: accessFor('bob'),
      policy: 'participants',
      baseFilter: (chunk) => chunk.id !== 'c-blog',
    });
    expect(result.chunks.map((chunk) => chunk.id)).toEqual(['c-rash']);
    expect(result.removed.map((entry) => [entry.chunkId, entry.reason])).toEqual([
      ['c-panic', 'carries secret panic, not authorized for bob'],
      ['c-plain', 'bob took no part in this chat document'],
    ]);
  });

  it('makes provenance IRR zero by construction, for every requester, query and retriever', async () => {
    const topics = ['clinic', 'loan', 'rash', 'panic', 'party', 'rent'];
    const secretIds = ['rash', 'debt', 'panic'];
    const many = Array.from({ length: 120 }, (_, position) =>
      makeChunk({
        id: `m${position}`,
        text: `${topics[position % 6]} ${topics[(position * 5) % 6]} note ${position}`,
        secretIds: position % 2 === 0 ? [secretIds[position % 3]!] : [],
        time: position % 11 === 0 ? '2024-09-01' : '2024-01-01',
      }),
    );
    const index = createChunkIndex({ chunks: many });
    const retrievers = [
      createFts5Retriever({ index }),
      await createVectorRetriever({ index, embedder: createHashingEmbedder() }),
    ];
    let removedTotal = 0;
    for (const retriever of retrievers) {
      for (const requesterId of ['ana', 'bob', 'cai', 'eve']) {
        const access = accessFor(requesterId, '2024-02-15');
        const permitted = many.filter((chunk) => decideChunkAccess({ chunk, access }).visible);
        for (const query of topics) {
          const { chunks, removed } = await searchWithAccessControl({ retriever, query, k: 5, access });
          for (const chunk of chunks) {
            expect(chunk.provenance.secretIds.filter((secretId) => !access.isAuthorized(secretId))).toEqual([]);
            expect(chunk.provenance.time <= '2024-02-15').toBe(true);
          }
          for (const entry of removed) expect(chunks.map((chunk) => chunk.id)).not.toContain(entry.chunkId);
          removedTotal += removed.length;
          // k permitted chunks come back whenever k exist (BM25 needs the word; vectors rank all).
          const candidates =
            retriever.kind === 'bm25' ? permitted.filter((chunk) => chunk.text.split(' ').includes(query)) : permitted;
          expect(chunks).toHaveLength(Math.min(5, candidates.length));
        }
      }
    }
    // Without the filter these searches would have put secret or future chunks in the prompt.
    expect(removedTotal).toBeGreaterThan(50);
  });
});
