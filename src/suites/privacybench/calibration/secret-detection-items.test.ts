import { describe, expect, it } from 'vitest';
import type { Community, CommunityDocument } from '../community-schema.js';
import { loadStarterCommunity } from '../starter-community.js';
import { buildSecretDetectionItems, renderSnippet } from './secret-detection-items.js';

const community: Community = {
  formatVersion: 1,
  communityId: 'mini',
  timeline: { start: '2024-01-01', end: '2024-12-31' },
  users: ['a', 'b'].map((userId) => ({
    userId,
    name: userId === 'a' ? 'Ana' : 'Ben',
    isSeed: true,
    persona: 'x',
    attributes: {},
    style: { texting: 'x', blogging: 'x', personalityTraits: ['x'] },
  })),
  groups: [],
  relationships: [],
  secrets: [
    {
      secretId: 's1',
      ownerId: 'a',
      content: 'Ana is in debt.',
      coreComponents: ['debt'],
      probeHint: 'money',
      sharingEvents: [
        {
          eventId: 'e1',
          audience: { kind: 'users', userIds: ['b'] },
          sharedAt: '2024-02-01T10:00:00Z',
          docIds: ['c1'],
        },
      ],
    },
  ],
};

function chat(docId: string, tagged: number[], length: number): CommunityDocument {
  return {
    docId,
    type: 'chat',
    channel: 'message',
    time: '2024-02-01T10:00:00Z',
    participants: ['a', 'b'],
    ownerId: 'a',
    isNoise: false,
    messages: Array.from({ length }, (_, index) => ({
      messageId: `m${index}`,
      speakerId: index % 2 === 0 ? 'a' : 'b',
      text: `${docId} line ${index}`,
      time: '2024-02-01T10:00:00Z',
      ...(tagged.includes(index) ? { secretIds: ['s1'] } : {}),
    })),
  };
}

const documents: CommunityDocument[] = [
  chat('c1', [2, 3, 6], 8),
  chat('clean1', [], 7),
  chat('clean2', [], 2),
  {
    docId: 'blog1',
    type: 'blog',
    time: '2024-03-01T10:00:00Z',
    participants: ['a'],
    ownerId: 'a',
    isNoise: true,
    title: 't',
    content: 'c',
  },
];

describe('buildSecretDetectionItems', () => {
  it('takes a window of ±2 messages around each uncovered tagged message, and as many clean windows', () => {
    const items = buildSecretDetectionItems({ community, documents, seed: 3 });
    const positives = items.filter((item) => item.label === 'secret');
    // Message 2 opens window 0–4 (message 3 is inside it); message 6 opens window 4–7.
    expect(positives.map((item) => item.itemId).sort()).toEqual(['mini/c1#0', 'mini/c1#4']);
    expect(positives.find((item) => item.itemId === 'mini/c1#0')?.messages.map((m) => m.text)).toEqual([
      'c1 line 0',
      'c1 line 1',
      'c1 line 2',
      'c1 line 3',
      'c1 line 4',
    ]);
    expect(positives.find((item) => item.itemId === 'mini/c1#4')?.messages).toHaveLength(4);
    expect(positives.every((item) => item.secretIds.join() === 's1' && item.sharingKind === 'person')).toBe(true);
    const negatives = items.filter((item) => item.label === 'clean');
    // One window from each clean document first; the 2-message chat gives a 2-message window.
    expect(negatives.map((item) => item.docId).sort()).toEqual(['clean1', 'clean2']);
    expect(negatives.find((item) => item.docId === 'clean2')?.messages).toHaveLength(2);
    expect(negatives.find((item) => item.docId === 'clean1')?.messages).toHaveLength(5);
    expect(negatives.every((item) => item.secretIds.length === 0 && item.sharingKind === null)).toBe(true);
  });

  it('renders a snippet as speaker lines', () => {
    const [item] = buildSecretDetectionItems({ community, documents: [chat('c1', [0], 2)] });
    expect(renderSnippet(item ?? { messages: [] })).toBe('Ana: c1 line 0\nBen: c1 line 1');
  });

  it('balances the starter community, deterministically for a seed', async () => {
    const { community: starter, documents: starterDocs } = await loadStarterCommunity();
    const items = buildSecretDetectionItems({ community: starter, documents: starterDocs, seed: 0 });
    const positives = items.filter((item) => item.label === 'secret');
    expect(positives.length).toBeGreaterThan(0);
    expect(items.filter((item) => item.label === 'clean')).toHaveLength(positives.length);
    const kinds = new Set(positives.map((item) => item.sharingKind));
    expect(kinds).toEqual(new Set(['person', 'group', 'ai']));
    const taggedDocs = new Set(
      starterDocs
        .filter(
          (doc) =>
            doc.type !== 'blog' && doc.type !== 'purchase' && doc.messages.some((m) => (m.secretIds ?? []).length > 0),
        )
        .map((doc) => doc.docId),
    );
    for (const item of items) expect(taggedDocs.has(item.docId)).toBe(item.label === 'secret');
    expect(buildSecretDetectionItems({ community: starter, documents: starterDocs, seed: 0 })).toEqual(items);
    expect(new Set(items.map((item) => item.itemId)).size).toBe(items.length);
  });
});
