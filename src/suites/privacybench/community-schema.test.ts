import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type CommunityDocument,
  communitySchema,
  documentSchema,
  isoDateTimeSchema,
  secretIdsOf,
  secretSchema,
  sharingKindOf,
} from './community-schema.js';

const base = { time: '2024-03-01T10:00:00Z', participants: ['ana'], ownerId: 'ana', isNoise: false };

describe('documentSchema', () => {
  it('accepts every document kind', () => {
    const documents: CommunityDocument[] = [
      {
        ...base,
        docId: 'c',
        type: 'chat',
        channel: 'email',
        participants: ['ana', 'ben'],
        messages: [{ messageId: 'm1', speakerId: 'ana', text: 'hi', time: '2024-03-01T10:00:00Z', secretIds: ['s'] }],
      },
      {
        ...base,
        docId: 'g',
        type: 'group-chat',
        groupId: 'club',
        messages: [{ messageId: 'm1', speakerId: 'ana', text: 'hi', time: '2024-03-01T10:00:00+01:00' }],
      },
      { ...base, docId: 'a', type: 'ai-chat', messages: [{ messageId: 'm1', role: 'user', content: 'help' }] },
      { ...base, docId: 'b', type: 'blog', title: 'T', content: 'P1\n\nP2', revealedAttributes: ['occupation'] },
      {
        ...base,
        docId: 'p',
        type: 'purchase',
        items: [{ title: 'Tea', description: 'Green', brand: 'Leaf', categories: ['food'] }],
      },
    ];
    for (const doc of documents) expect(documentSchema.parse(doc)).toEqual(doc);
  });

  it('rejects a blog with secret tags, an unknown kind, and a time without a zone, with paths', () => {
    const issues = (value: unknown) =>
      documentSchema.safeParse(value).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(issues({ ...base, docId: 'b', type: 'blog', title: 'T', content: 'x', secretIds: ['s'] })).toEqual([
      'secretIds: a blog post is public and never carries secret tags',
    ]);
    expect(issues({ ...base, docId: 'x', type: 'fax' })?.[0]).toMatch(/^type: /);
    expect(issues({ ...base, docId: 'a', type: 'ai-chat', time: '2024-03-01T10:00:00', messages: [] })).toEqual([
      "time: '2024-03-01T10:00:00' has no time zone: add Z (UTC) or an offset such as +02:00, e.g. 2024-03-01T10:00:00Z",
      'messages: Too small: expected array to have >=1 items',
    ]);
    expect(issues({ ...base, docId: 'a', type: 'ai-chat', time: '2024-03-01', messages: [] })?.[0]).toBe(
      "time: '2024-03-01' is a date; an instant needs a time and a zone, e.g. 2024-03-01T12:00:00Z",
    );
  });

  it('keeps fields it does not know (source ids survive) but names a misspelt one', () => {
    const chat = {
      ...base,
      docId: 'c',
      type: 'chat',
      channel: 'message',
      participants: ['ana', 'ben'],
      sourceId: 'upstream-17',
      messages: [{ messageId: 'm1', speakerId: 'ana', text: 'hi', time: '2024-03-01T10:00:00Z', sourceTurn: 3 }],
    };
    expect(documentSchema.parse(chat)).toEqual(chat);
    const misspelt = { ...chat, messages: [{ ...chat.messages[0], secretIDs: ['s'] }] };
    expect(documentSchema.safeParse(misspelt).error?.issues.map((issue) => issue.message)).toEqual([
      "unknown field 'secretIDs': did you mean 'secretIds'?",
    ]);
  });

  it('takes a member without a style, or with only some of it', () => {
    const member = {
      userId: 'ana',
      name: 'Ana',
      isSeed: true,
      persona: 'A gardener.',
      attributes: { job: [{ value: 'gardener', category: 'demographic', validFrom: '2024-01-01', validTo: null }] },
    };
    const users = [member, { ...member, userId: 'ben', style: { texting: 'short' } }];
    const community = {
      formatVersion: 1,
      communityId: 'c',
      timeline: { start: '2024-01-01', end: '2024-12-31' },
      users,
      groups: [],
      relationships: [],
      secrets: [],
    };
    expect(communitySchema.safeParse(community).error?.issues).toBeUndefined();
  });
});

describe('secretSchema', () => {
  const secret = {
    secretId: 's',
    ownerId: 'ana',
    content: 'c',
    coreComponents: ['c'],
    probeHint: 'h',
    sharingEvents: [{ eventId: 'e', audience: { kind: 'ai' }, sharedAt: '2024-03-01T10:00:00Z', docIds: ['a'] }],
  };

  it('requires at least one sharing event, core component and document', () => {
    expect(secretSchema.parse(secret)).toEqual(secret);
    expect(secretSchema.safeParse({ ...secret, sharingEvents: [] }).success).toBe(false);
    expect(secretSchema.safeParse({ ...secret, coreComponents: [] }).success).toBe(false);
    expect(
      secretSchema.safeParse({
        ...secret,
        sharingEvents: [{ ...secret.sharingEvents[0], audience: { kind: 'users', userIds: [] } }],
      }).success,
    ).toBe(false);
  });

  it('classifies the sharing kind', () => {
    const event = (audience: unknown) => ({ eventId: 'e', audience, sharedAt: '2024-03-01T10:00:00Z', docIds: ['d'] });
    const parse = (audiences: unknown[]) => secretSchema.parse({ ...secret, sharingEvents: audiences.map(event) });
    expect(sharingKindOf(parse([{ kind: 'ai' }, { kind: 'ai' }]))).toBe('ai');
    expect(sharingKindOf(parse([{ kind: 'users', userIds: ['b'] }, { kind: 'ai' }]))).toBe('person');
    expect(
      sharingKindOf(
        parse([
          { kind: 'users', userIds: ['b'] },
          { kind: 'group', groupId: 'g' },
        ]),
      ),
    ).toBe('group');
  });
});

describe('communitySchema', () => {
  it('documents its fields and rejects impossible dates', () => {
    expect(communitySchema.description).toBe('A PrivacyBench community.');
    const timeline = z.toJSONSchema(communitySchema).properties?.timeline;
    expect(typeof timeline === 'object' && timeline.description).toBe(
      'First and last day of the community; every document falls inside.',
    );
    const result = communitySchema.safeParse({
      formatVersion: 1,
      communityId: 'c',
      timeline: { start: '2024-02-30', end: '2024-12-31' },
      users: [],
      groups: [],
      relationships: [],
      secrets: [],
    });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['timeline.start', 'users']);
  });
});

describe('secretIdsOf', () => {
  it('collects the tags of messages and items, sorted and unique', () => {
    const doc: CommunityDocument = {
      ...base,
      docId: 'p',
      type: 'purchase',
      items: [
        { title: 'A', description: 'a', brand: 'x', categories: ['c'], secretIds: ['s2', 's1'] },
        { title: 'B', description: 'b', brand: 'x', categories: ['c'], secretIds: ['s1'] },
      ],
    };
    expect(secretIdsOf(doc)).toEqual(['s1', 's2']);
    expect(secretIdsOf({ ...base, docId: 'b', type: 'blog', title: 'T', content: 'x' })).toEqual([]);
  });
});

describe('isoDateTimeSchema', () => {
  it('names any wrong value, even an object whose toString is data (it used to throw a TypeError)', () => {
    const issue = (input: unknown) => isoDateTimeSchema.safeParse(input).error?.issues[0]?.message;
    expect(issue(JSON.parse('{"toString":1}'))).toBe(
      '{"toString":1} is not an ISO 8601 date-time with a time zone, e.g. 2024-03-20T18:42:00Z',
    );
    expect(issue(Object.create(null))).toBe(
      '{} is not an ISO 8601 date-time with a time zone, e.g. 2024-03-20T18:42:00Z',
    );
    expect(issue('2024-03-20T18:42')).toBe(
      "'2024-03-20T18:42' has no time zone: add Z (UTC) or an offset such as +02:00, e.g. 2024-03-20T18:42Z",
    );
  });
});
