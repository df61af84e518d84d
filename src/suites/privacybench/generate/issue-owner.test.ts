import { describe, expect, it } from 'vitest';
import type { CommunityIssue } from '../community-issue.js';
import { draftFixture } from './__fixtures__/draft-fixture.js';
import { ownerOfIssue } from './issue-owner.js';

const issue = (rule: CommunityIssue['rule'], path: string, extra: Partial<CommunityIssue> = {}): CommunityIssue => ({
  rule,
  file: 'community.json',
  path,
  message: 'x',
  ...extra,
});

describe('ownerOfIssue', () => {
  const draft = draftFixture();
  draft.community.secrets = [
    {
      secretId: 'u01-s1',
      ownerId: 'u01',
      content: 'c',
      coreComponents: ['c'],
      probeHint: 'h',
      sharingEvents: [
        {
          eventId: 'u01-s1-e1',
          audience: { kind: 'users', userIds: ['u03'] },
          sharedAt: '2024-08-01T12:00:00Z',
          docIds: ['share-u01-s1-e1'],
        },
      ],
    },
  ];
  draft.owners.secrets = ['secrets/u01'];
  draft.owners.documents = { 'd-1-u01-chat-1-0': 'docs/1/u01/chat/1' };
  draft.owners.users = ['seeds', 'seeds', 'expand/u03'];

  it('sends each issue to the unit that produced the data at fault', () => {
    expect(ownerOfIssue({ issue: issue('time-order', 'users[0].attributes.occupation[1]'), draft })).toBe(
      'profile/u01',
    );
    expect(ownerOfIssue({ issue: issue('duplicate-id', 'users[2].userId'), draft })).toBe('expand/u03');
    expect(ownerOfIssue({ issue: issue('time-order', 'relationships[1]'), draft })).toBe('timeline');
    expect(ownerOfIssue({ issue: issue('unknown-reference', 'groups[0].memberships[2].userId'), draft })).toBe(
      'groups',
    );
    expect(
      ownerOfIssue({ issue: issue('relationship-inactive', 'secrets[0].sharingEvents[0].audience.userIds[0]'), draft }),
    ).toBe('secrets/u01');
    expect(ownerOfIssue({ issue: issue('probe-hint', 'secrets[0].probeHint'), draft })).toBe('secrets/u01');
    expect(ownerOfIssue({ issue: issue('secret-not-revealed', 'secrets[0].sharingEvents[0].docIds[0]'), draft })).toBe(
      'share/u01-s1-e1',
    );
    expect(
      ownerOfIssue({
        issue: issue('participants', 'messages[1].speakerId', {
          file: 'documents.jsonl',
          docId: 'd-1-u01-chat-1-0',
          line: 3,
        }),
        draft,
      }),
    ).toBe('docs/1/u01/chat/1');
  });

  it('returns undefined for issues no unit owns', () => {
    expect(ownerOfIssue({ issue: issue('time-order', 'timeline'), draft })).toBeUndefined();
    expect(ownerOfIssue({ issue: issue('participants', 'x', { file: 'documents.jsonl' }), draft })).toBeUndefined();
    expect(ownerOfIssue({ issue: issue('time-order', 'users[9].attributes.x[0]'), draft })).toBeUndefined();
  });
});
