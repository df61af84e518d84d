import { describe, expect, it } from 'vitest';
import { chunkSchema } from '../../spec/chunk.js';
import { PlanValidationError } from '../../spec/errors.js';
import { buildStarterCommunity } from './build-starter-community.js';
import type { CommunityDocument } from './community-schema.js';
import { BLOG_CHUNK_MAX_CHARS, buildKnowledgeBase, footprintOf, parseChunking } from './knowledge-base.js';

const community = {
  users: [
    { userId: 'ana', name: 'Ana Ay' },
    { userId: 'ben', name: 'Ben Bo' },
    { userId: 'cat', name: 'Cat Cy' },
  ],
  groups: [{ groupId: 'g1', name: 'Book Club' }],
};

const longParagraph = Array.from({ length: 300 }, (_, index) => `word${index}`).join(' ');

const documents: CommunityDocument[] = [
  {
    docId: 'd-chat',
    type: 'chat',
    channel: 'email',
    time: '2024-02-01T10:00:00Z',
    participants: ['ana', 'ben'],
    ownerId: 'ana',
    isNoise: false,
    messages: [
      { messageId: 'm1', speakerId: 'ana', text: 'How was the trip?', time: '2024-02-01T10:00:00Z' },
      { messageId: 'm2', speakerId: 'ben', text: 'I quit my job.', time: '2024-02-01T10:02:00Z', secretIds: ['s1'] },
      { messageId: 'm3', speakerId: 'ana', text: 'Wow.', time: '2024-02-01T10:05:00Z' },
    ],
  },
  {
    docId: 'd-other',
    type: 'chat',
    channel: 'message',
    time: '2024-02-02T10:00:00Z',
    participants: ['ben', 'cat'],
    ownerId: 'ben',
    isNoise: true,
    messages: [{ messageId: 'm1', speakerId: 'ben', text: 'Lunch?', time: '2024-02-02T10:00:00Z' }],
  },
  {
    docId: 'd-group',
    type: 'group-chat',
    groupId: 'g1',
    time: '2024-02-03T18:00:00Z',
    participants: ['ana', 'ben', 'cat'],
    ownerId: 'cat',
    isNoise: false,
    messages: [
      { messageId: 'm1', speakerId: 'cat', text: 'Next book?', time: '2024-02-03T18:00:00Z', secretIds: ['s2', 's2'] },
    ],
  },
  {
    docId: 'd-ai',
    type: 'ai-chat',
    time: '2024-03-01T09:00:00Z',
    participants: ['ana'],
    ownerId: 'ana',
    isNoise: false,
    messages: [
      { messageId: 'm1', role: 'user', content: 'Draft a resignation letter.', secretIds: ['s3'] },
      { messageId: 'm2', role: 'assistant', content: 'Here is a draft.' },
    ],
  },
  {
    docId: 'd-blog',
    type: 'blog',
    time: '2024-04-01T12:00:00Z',
    participants: ['ana'],
    ownerId: 'ana',
    isNoise: true,
    title: 'Spring',
    content: `First paragraph.\n\n  Second paragraph.  \n\n${longParagraph}`,
  },
  {
    docId: 'd-purchase',
    type: 'purchase',
    time: '2024-05-01T08:00:00Z',
    participants: ['ana'],
    ownerId: 'ana',
    isNoise: false,
    items: [
      { title: 'Tea', description: 'Green tea.', brand: 'Leaf', categories: ['food'] },
      {
        title: 'Ring',
        description: 'Silver ring.',
        brand: 'Shine',
        categories: ['jewellery', 'gifts'],
        secretIds: ['s4'],
      },
    ],
  },
  {
    docId: 'd-late',
    type: 'chat',
    channel: 'message',
    time: '2024-06-01T10:00:00Z',
    participants: ['ben', 'ana'],
    ownerId: 'ben',
    isNoise: true,
    messages: [{ messageId: 'm1', speakerId: 'ben', text: 'Hi!', time: '2024-06-01T10:00:00Z' }],
  },
];

describe('buildKnowledgeBase', () => {
  it('chunks the footprint per message, paragraph and item with stable ids', () => {
    const chunks = buildKnowledgeBase({ community, documents, userId: 'ana' });
    expect(chunks.map((chunk) => chunk.id)).toEqual([
      'd-chat#m1',
      'd-chat#m2',
      'd-chat#m3',
      'd-group#m1',
      'd-ai#m1',
      'd-ai#m2',
      'd-blog#p1',
      'd-blog#p2',
      'd-blog#p3',
      'd-blog#p4',
      'd-blog#p5',
      'd-purchase#i1',
      'd-purchase#i2',
      'd-late#m1',
    ]);
    for (const chunk of chunks) expect(chunkSchema.parse(chunk)).toEqual(chunk);
  });

  it('gives each chunk a context header and full provenance', () => {
    const chunks = new Map(
      buildKnowledgeBase({ community, documents, userId: 'ana' }).map((chunk) => [chunk.id, chunk]),
    );
    expect(chunks.get('d-chat#m2')).toEqual({
      id: 'd-chat#m2',
      text: '[Email with Ben Bo, 2024-02-01]\nBen Bo: I quit my job.',
      provenance: {
        docId: 'd-chat',
        docType: 'chat',
        ownerId: 'ana',
        participants: ['ana', 'ben'],
        time: '2024-02-01T10:02:00Z',
        secretIds: ['s1'],
      },
    });
    expect(chunks.get('d-group#m1')?.text).toBe('[Group chat "Book Club", 2024-02-03]\nCat Cy: Next book?');
    expect(chunks.get('d-group#m1')?.provenance.secretIds).toEqual(['s2']);
    expect(chunks.get('d-ai#m1')).toMatchObject({
      text: '[AI assistant chat of Ana Ay, 2024-03-01]\nAna Ay: Draft a resignation letter.',
      provenance: { docType: 'ai-chat', time: '2024-03-01T09:00:00Z', secretIds: ['s3'], participants: ['ana'] },
    });
    expect(chunks.get('d-ai#m2')?.text).toBe('[AI assistant chat of Ana Ay, 2024-03-01]\nAssistant: Here is a draft.');
    expect(chunks.get('d-blog#p2')?.text).toBe('[Blog post "Spring" by Ana Ay, 2024-04-01]\nSecond paragraph.');
    expect(chunks.get('d-purchase#i2')).toMatchObject({
      text: '[Purchase by Ana Ay, 2024-05-01]\nBought "Ring" by Shine (jewellery, gifts): Silver ring.',
      provenance: { docType: 'purchase', secretIds: ['s4'] },
    });
    expect(chunks.get('d-purchase#i1')?.provenance.secretIds).toEqual([]);
  });

  it('writes the header from the viewer side and leaves out documents the viewer is not in', () => {
    const chunks = buildKnowledgeBase({ community, documents, userId: 'ben' });
    expect(chunks.find((chunk) => chunk.id === 'd-chat#m1')?.text).toBe(
      '[Email with Ana Ay, 2024-02-01]\nAna Ay: How was the trip?',
    );
    expect(chunks.map((chunk) => chunk.provenance.docId)).not.toContain('d-ai');
    expect(footprintOf({ documents, userId: 'cat' }).map((doc) => doc.docId)).toEqual(['d-other', 'd-group']);
  });

  it('cuts long blog paragraphs at whitespace into pieces of at most 1,000 characters', () => {
    const pieces = buildKnowledgeBase({ community, documents, userId: 'ana' })
      .filter((chunk) => chunk.provenance.docId === 'd-blog')
      .map((chunk) => chunk.text.split('\n')[1] ?? '');
    expect(pieces.slice(0, 2)).toEqual(['First paragraph.', 'Second paragraph.']);
    // 2,289 characters of words cut into three pieces.
    expect(pieces).toHaveLength(5);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(BLOG_CHUNK_MAX_CHARS);
    expect(pieces.slice(2).join(' ')).toBe(longParagraph);
  });

  it('keeps only chunks at or before asOf (a date means the whole day)', () => {
    const byDate = buildKnowledgeBase({ community, documents, userId: 'ana', asOf: '2024-05-31' });
    expect(byDate.map((chunk) => chunk.id)).not.toContain('d-late#m1');
    expect(byDate).toHaveLength(13);
    const midChat = buildKnowledgeBase({ community, documents, userId: 'ana', asOf: '2024-02-01T10:03:00Z' });
    expect(midChat.map((chunk) => chunk.id)).toEqual(['d-chat#m1', 'd-chat#m2']);
  });

  it('can chunk chat-like documents in windows, uniting their tags and dating them by the last message', () => {
    const chunks = buildKnowledgeBase({ community, documents, userId: 'ana', chunking: { kind: 'window', size: 2 } });
    const [first, second] = chunks;
    expect(first).toEqual({
      id: 'd-chat#w1',
      text: '[Email with Ben Bo, 2024-02-01]\nAna Ay: How was the trip?\nBen Bo: I quit my job.',
      provenance: {
        docId: 'd-chat',
        docType: 'chat',
        ownerId: 'ana',
        participants: ['ana', 'ben'],
        time: '2024-02-01T10:02:00Z',
        secretIds: ['s1'],
      },
    });
    expect(second).toMatchObject({ id: 'd-chat#w2', provenance: { time: '2024-02-01T10:05:00Z', secretIds: [] } });
    expect(chunks.filter((chunk) => chunk.provenance.docId === 'd-blog')).toHaveLength(5);
    expect(chunks.map((chunk) => chunk.id)).toContain('d-ai#w1');
    expect(chunks.map((chunk) => chunk.id)).not.toContain('d-ai#w2');
  });

  it("puts the starter secrets' reveals in their participants' knowledge bases only", () => {
    const starter = buildStarterCommunity();
    const tagged = (userId: string) =>
      new Set(
        buildKnowledgeBase({ community: starter.community, documents: starter.documents, userId }).flatMap(
          (chunk) => chunk.provenance.secretIds,
        ),
      );
    expect([...tagged('kofi')].sort()).toEqual(['kofi-lawsuit', 'kofi-parkinsons', 'maya-anxiety']);
    expect([...tagged('maya')].sort()).toEqual([
      'daniel-audit',
      'daniel-layoffs',
      'maya-anxiety',
      'maya-birth-father',
      'maya-debt',
      'maya-proposal',
      'priya-ccrn',
      'sam-gambling',
    ]);
  });
});

describe('parseChunking', () => {
  it('accepts message and window:<n>', () => {
    expect(parseChunking('message')).toEqual({ kind: 'message' });
    expect(parseChunking('window:3')).toEqual({ kind: 'window', size: 3 });
    expect(() => parseChunking('window:0')).toThrow(PlanValidationError);
    expect(() => parseChunking('paragraph')).toThrow(
      "chunking must be 'message' or 'window:<n>' with n ≥ 1, got 'paragraph'",
    );
  });
});
