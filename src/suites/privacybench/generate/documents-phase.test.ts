import { describe, expect, it } from 'vitest';
import { draftFixture } from './__fixtures__/draft-fixture.js';
import { planDocuments } from './document-plan.js';
import { documentsPhase, slotProblems } from './documents-phase.js';

const volumes = {
  privateConversationsPerUser: 2,
  groupConversationsPerUser: 2,
  aiConversationsPerUser: 2,
  blogPostsPerUser: 2,
  purchasesPerUser: 2,
  conversationNoiseRatio: 0,
  attributeRevealProbability: 1,
};

describe('documents phase', () => {
  it('needs exactly one document per slot', () => {
    const batch = planDocuments(draftFixture({ parameters: volumes })).find(
      (candidate) => candidate.slots.length === 1,
    );
    if (batch === undefined) throw new Error('no single-slot batch');
    expect(slotProblems({ batch, slots: [0] })).toEqual([]);
    expect(slotProblems({ batch, slots: [0, 0, 4] })).toEqual([
      'give exactly one document for slot 0, not 2',
      'there is no slot 4',
    ]);
  });

  it('turns answers into documents of each kind with times, noise flags and revealed attributes', () => {
    const draft = draftFixture({ parameters: volumes });
    const units = documentsPhase.units(draft).filter((unit) => unit.key.startsWith('docs/1/u01/'));
    expect(units.map((unit) => unit.step)).toEqual(['chats', 'group-chats', 'ai-chats', 'blogs', 'purchases']);
    const [chats, groups, ai, blogs, purchases] = units;
    const wrongSpeaker = {
      documents: [
        {
          slot: 0,
          messages: [
            { speakerId: 'u09', text: 'a' },
            { speakerId: 'u01', text: 'b' },
          ],
        },
      ],
    };
    expect(chats?.validate(wrongSpeaker, draft)).toEqual(["slot 0, message 1: speaker 'u09' is not one of u01, u02"]);
    chats?.apply(draft, {
      documents: [
        {
          slot: 0,
          messages: [
            { speakerId: 'u01', text: 'a' },
            { speakerId: 'u02', text: 'b' },
          ],
        },
      ],
    });
    groups?.apply(draft, {
      documents: [
        {
          slot: 0,
          messages: [
            { speakerId: 'u01', text: 'a' },
            { speakerId: 'u02', text: 'b' },
          ],
        },
      ],
    });
    expect(
      ai?.validate(
        {
          documents: [
            {
              slot: 0,
              messages: [
                { role: 'assistant', text: 'a' },
                { role: 'user', text: 'b' },
              ],
            },
          ],
        },
        draft,
      ),
    ).toEqual(['slot 0: the owner ("user") speaks first']);
    ai?.apply(draft, {
      documents: [
        {
          slot: 0,
          messages: [
            { role: 'user', text: 'a' },
            { role: 'assistant', text: 'b' },
          ],
        },
      ],
    });
    blogs?.apply(draft, { documents: [{ slot: 0, title: 'T', content: 'C' }] });
    purchases?.apply(draft, {
      documents: [{ slot: 0, items: [{ title: 'Milk', description: 'd', brand: 'b', categories: ['food'] }] }],
    });
    expect(draft.documents.map((doc) => [doc.type, doc.docId, doc.isNoise, doc.revealedAttributes?.length])).toEqual([
      ['chat', 'd-1-u01-chat-1-0', false, 1],
      ['group-chat', 'd-1-u01-group-chat-1-0', false, 1],
      ['ai-chat', 'd-1-u01-ai-chat-1-0', false, 1],
      ['blog', 'd-1-u01-blog-1-0', false, 1],
      ['purchase', 'd-1-u01-purchase-1-0', false, 1],
    ]);
    const [chat] = draft.documents;
    if (chat?.type !== 'chat') throw new Error('expected a chat');
    expect(chat.messages.map((message) => message.time)).toEqual([
      chat.time,
      new Date(Date.parse(chat.time) + 120_000).toISOString().replace('.000Z', 'Z'),
    ]);
    expect(draft.owners.documents['d-1-u01-blog-1-0']).toBe('docs/1/u01/blog/1');
  });
});
