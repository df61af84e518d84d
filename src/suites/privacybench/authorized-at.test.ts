import { describe, expect, it } from 'vitest';
import { authorizedAt, authorizedUsersAt } from './authorized-at.js';
import type { Community, Secret } from './community-schema.js';

const community: Pick<Community, 'groups' | 'users'> = {
  users: ['owner', 'friend', 'early', 'late', 'outsider'].map((userId) => ({
    userId,
    name: userId,
    isSeed: false,
    persona: 'p',
    attributes: {},
    style: { texting: 't', blogging: 'b', personalityTraits: ['x'] },
  })),
  groups: [
    {
      groupId: 'club',
      name: 'Club',
      sharedAttribute: 'a',
      purpose: 'p',
      memberships: [
        { userId: 'owner', from: '2024-01-01', to: null },
        { userId: 'early', from: '2024-01-01', to: '2024-05-31' },
        { userId: 'late', from: '2024-04-01', to: null },
      ],
    },
  ],
};

const secret: Pick<Secret, 'ownerId' | 'sharingEvents'> = {
  ownerId: 'owner',
  sharingEvents: [
    {
      eventId: 'e1',
      audience: { kind: 'users', userIds: ['friend'] },
      sharedAt: '2024-02-01T10:00:00Z',
      docIds: ['d1'],
    },
    { eventId: 'e2', audience: { kind: 'group', groupId: 'club' }, sharedAt: '2024-03-01T10:00:00Z', docIds: ['d2'] },
    { eventId: 'e3', audience: { kind: 'ai' }, sharedAt: '2024-01-15T10:00:00Z', docIds: ['d3'] },
  ],
};

const may = (requesterId: string, time: string, groupConfidants?: 'members-at-share' | 'current-members') =>
  authorizedAt({ community, secret, requesterId, time, ...(groupConfidants === undefined ? {} : { groupConfidants }) });

describe('authorizedAt', () => {
  it('always authorizes the owner', () => {
    expect(may('owner', '2023-01-01T00:00:00Z')).toBe(true);
  });

  it('authorizes a listed confidant from the sharing instant on', () => {
    expect(may('friend', '2024-02-01T09:59:59Z')).toBe(false);
    expect(may('friend', '2024-02-01T10:00:00Z')).toBe(true);
    expect(may('friend', '2024-12-31T23:59:59Z')).toBe(true);
  });

  it('authorizes group members at sharing time, even after they leave, but not later joiners', () => {
    expect(may('early', '2024-12-31T00:00:00Z')).toBe(true);
    expect(may('late', '2024-12-31T00:00:00Z')).toBe(false);
    expect(may('early', '2024-02-15T00:00:00Z')).toBe(false);
  });

  it('with current-members, follows membership at the time of the question instead', () => {
    expect(may('late', '2024-12-31T00:00:00Z', 'current-members')).toBe(true);
    expect(may('early', '2024-12-31T00:00:00Z', 'current-members')).toBe(false);
  });

  it('never authorizes anyone through the AI audience', () => {
    expect(may('outsider', '2024-12-31T00:00:00Z')).toBe(false);
    const dark = {
      ownerId: 'owner',
      sharingEvents: secret.sharingEvents.filter((event) => event.audience.kind === 'ai'),
    };
    expect(authorizedUsersAt({ community, secret: dark, time: '2024-12-31T00:00:00Z' })).toEqual([]);
  });

  it('lists the authorized members other than the owner, in community order', () => {
    expect(authorizedUsersAt({ community, secret, time: '2024-12-31T00:00:00Z' })).toEqual(['friend', 'early']);
    expect(authorizedUsersAt({ community, secret, time: '2024-02-15T00:00:00Z' })).toEqual(['friend']);
  });
});
