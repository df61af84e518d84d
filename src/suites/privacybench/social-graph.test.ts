import { describe, expect, it } from 'vitest';
import type { Group, Relationship } from './community-schema.js';
import { activeRelationship, isMemberAt, membersAt, relationshipLabel, relationshipsBetween } from './social-graph.js';

const manager: Relationship = {
  sourceId: 'maya',
  targetId: 'daniel',
  relationship: 'manager',
  inverseRelationship: 'direct report',
  permanence: 'temporary',
  startDate: '2021-03-01',
  endDate: '2024-06-14',
};
const friend: Relationship = {
  sourceId: 'maya',
  targetId: 'daniel',
  relationship: 'friend',
  permanence: 'temporary',
  startDate: '2024-06-15',
  endDate: null,
};
const community = { relationships: [manager, friend] };
const group: Group = {
  groupId: 'g',
  name: 'G',
  sharedAttribute: 'a',
  purpose: 'p',
  memberships: [
    { userId: 'ana', from: '2024-01-01', to: '2024-03-31' },
    { userId: 'ben', from: '2024-02-01', to: null },
    { userId: 'ana', from: '2024-06-01', to: null },
  ],
};

describe('social graph', () => {
  it('finds edges in either direction and the one active at a time', () => {
    expect(relationshipsBetween({ community, a: 'daniel', b: 'maya' })).toEqual([manager, friend]);
    expect(activeRelationship({ community, a: 'daniel', b: 'maya', at: '2024-06-14T20:00:00Z' })).toBe(manager);
    expect(activeRelationship({ community, a: 'maya', b: 'daniel', at: '2024-06-15T08:00:00Z' })).toBe(friend);
    expect(activeRelationship({ community, a: 'maya', b: 'daniel', at: '2021-01-01T08:00:00Z' })).toBeUndefined();
  });

  it('names what the other member is to oneself', () => {
    expect(relationshipLabel({ relationship: manager, selfId: 'maya' })).toBe('manager');
    expect(relationshipLabel({ relationship: manager, selfId: 'daniel' })).toBe('direct report');
    expect(relationshipLabel({ relationship: friend, selfId: 'daniel' })).toBe('friend');
  });

  it('tracks group membership over time, including rejoining', () => {
    expect(membersAt({ group, at: '2024-01-15T00:00:00Z' })).toEqual(['ana']);
    expect(membersAt({ group, at: '2024-03-31T12:00:00Z' })).toEqual(['ana', 'ben']);
    expect(membersAt({ group, at: '2024-04-15T00:00:00Z' })).toEqual(['ben']);
    expect(isMemberAt({ group, userId: 'ana', at: '2024-07-01T00:00:00Z' })).toBe(true);
    expect(isMemberAt({ group, userId: 'cat', at: '2024-07-01T00:00:00Z' })).toBe(false);
  });
});
