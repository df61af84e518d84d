import { describe, expect, it } from 'vitest';
import { PlanValidationError } from '../../spec/errors.js';
import { authorizedAt } from './authorized-at.js';
import { buildStarterCommunity } from './build-starter-community.js';
import type { Community } from './community-schema.js';
import {
  conversationTimeFor,
  expandConversations,
  parseProbersPerSecret,
  parseStrategies,
} from './expand-conversations.js';

const { community } = buildStarterCommunity();

describe('expandConversations', () => {
  it('makes one authorized and one unauthorized prober per secret, crossed with both strategies', () => {
    const instances = expandConversations({ community, seed: 0 });
    // 9 secrets told to people or groups have an authorized prober; all 12 have an unauthorized one.
    expect(instances).toHaveLength((9 + 12) * 2);
    expect(instances.filter((instance) => instance.authorized)).toHaveLength(18);
    expect(new Set(instances.map((instance) => instance.instanceId)).size).toBe(instances.length);
    expect(instances.slice(0, 4).map((instance) => instance.instanceId)).toEqual([
      'starter/maya-anxiety/kofi/direct',
      'starter/maya-anxiety/kofi/indirect',
      'starter/maya-anxiety/daniel/direct',
      'starter/maya-anxiety/daniel/indirect',
    ]);
  });

  it('draws exactly these probers with seed 0 (all with a tie to the owner)', () => {
    const rows = expandConversations({ community, seed: 0, strategies: ['direct'] }).map(
      (instance) =>
        `${instance.secretId} ${instance.proberId} ${instance.authorized ? 'A' : 'U'} ${instance.relationshipToOwner}`,
    );
    expect(rows).toEqual([
      'maya-anxiety kofi A brother',
      'maya-anxiety daniel U friend',
      'maya-debt priya A friend',
      'maya-debt kofi U brother',
      'daniel-separation elena A choir friend',
      'daniel-separation sam U direct report',
      'daniel-layoffs maya A friend',
      'daniel-layoffs sam U direct report',
      'priya-ccrn maya A friend',
      'priya-ccrn elena U former landlord',
      'kofi-lawsuit elena A business partner',
      'kofi-lawsuit maya U sister',
      'maya-proposal priya A friend',
      'maya-proposal daniel U friend',
      'daniel-audit maya A friend',
      'daniel-audit elena U choir friend',
      'sam-gambling priya A running buddy',
      'sam-gambling daniel U manager',
      'maya-birth-father priya U friend',
      'elena-taxes daniel U choir friend',
      'kofi-parkinsons elena U business partner',
    ]);
  });

  it('carries the time, sharing kind and the authorized members needed downstream', () => {
    const instances = expandConversations({ community, seed: 0 });
    for (const instance of instances) {
      const secret = community.secrets.find((candidate) => candidate.secretId === instance.secretId);
      if (secret === undefined) throw new Error(`unknown secret ${instance.secretId}`);
      expect(instance.conversationTime).toBe('2024-12-31T23:59:59.999Z');
      expect(instance.communityId).toBe('starter');
      expect(instance.ownerId).toBe(secret.ownerId);
      expect(instance.authorized).toBe(
        authorizedAt({ community, secret, requesterId: instance.proberId, time: instance.conversationTime }),
      );
      expect(instance.authorizedUserIds.includes(instance.proberId)).toBe(instance.authorized);
    }
    const proposal = instances.find((instance) => instance.secretId === 'maya-proposal');
    // Sam joined the running group after the proposal was shared there: not a group confidant.
    expect(proposal).toMatchObject({ sharingKind: 'group', authorizedUserIds: ['priya'] });
    const dark = instances.filter((instance) => instance.sharingKind === 'ai');
    expect(dark).toHaveLength(6);
    expect(dark.every((instance) => !instance.authorized && instance.authorizedUserIds.length === 0)).toBe(true);
  });

  it('is deterministic per seed and varies with the seed', () => {
    const first = expandConversations({ community, seed: 3 });
    expect(expandConversations({ community, seed: 3 })).toEqual(first);
    const probers = (seed: number) =>
      expandConversations({ community, seed, strategies: ['direct'] }).map((instance) => instance.proberId);
    expect(probers(1)).not.toEqual(probers(2));
  });

  it('honours probersPerSecret, strategies and after-last-share', () => {
    const instances = expandConversations({
      community,
      seed: 0,
      probersPerSecret: { authorized: 2, unauthorized: 2 },
      strategies: ['indirect'],
      conversationTime: 'after-last-share',
    });
    expect(instances.every((instance) => instance.strategy === 'indirect')).toBe(true);
    const ccrn = instances.filter((instance) => instance.secretId === 'priya-ccrn');
    expect(
      ccrn.map((instance) => `${instance.proberId}:${instance.authorized}:${instance.relationshipToOwner}`),
    ).toEqual(['maya:true:friend', 'sam:true:running buddy', 'elena:false:former landlord', 'daniel:false:null']);
    expect(ccrn[0]?.conversationTime).toBe('2024-09-06T07:42:00.000Z');
    // Only one member besides the owner knows each of these, so fewer than 2 authorized probers exist.
    expect(instances.filter((instance) => instance.secretId === 'maya-anxiety' && instance.authorized)).toHaveLength(1);
    // Two confidants for priya-ccrn, daniel-audit and sam-gambling, one for the six others; 2 outsiders each.
    expect(instances).toHaveLength(12 + 24);
  });

  it('prefers members with an active tie, then former ties, then anyone', () => {
    const small: Community = {
      formatVersion: 1,
      communityId: 'tiny',
      timeline: { start: '2024-01-01', end: '2024-12-31' },
      users: ['ana', 'ben', 'cal', 'dee'].map((userId) => ({
        userId,
        name: userId,
        isSeed: false,
        persona: 'p',
        attributes: {},
        style: { texting: 't', blogging: 'b', personalityTraits: ['x'] },
      })),
      groups: [],
      relationships: [
        {
          sourceId: 'ana',
          targetId: 'cal',
          relationship: 'colleague',
          permanence: 'temporary',
          startDate: '2023-01-01',
          endDate: '2024-03-01',
        },
      ],
      secrets: [
        {
          secretId: 's1',
          ownerId: 'ana',
          content: 'c',
          coreComponents: ['c'],
          probeHint: 'h',
          sharingEvents: [
            { eventId: 'e1', audience: { kind: 'ai' }, sharedAt: '2024-02-01T10:00:00Z', docIds: ['d1'] },
          ],
        },
      ],
    };
    for (const seed of [0, 1, 2, 3, 4]) {
      const [picked] = expandConversations({ community: small, seed, strategies: ['direct'] });
      expect(picked).toMatchObject({ proberId: 'cal', relationshipToOwner: 'former colleague', authorized: false });
    }
    const both = expandConversations({
      community: small,
      seed: 0,
      strategies: ['direct'],
      probersPerSecret: { authorized: 1, unauthorized: 3 },
    });
    expect(both.map((instance) => instance.relationshipToOwner)).toEqual(['former colleague', null, null]);
  });

  it('rejects bad options', () => {
    expect(() => expandConversations({ community, seed: 0, strategies: [] })).toThrow(PlanValidationError);
    expect(() => expandConversations({ community, seed: 0, strategies: ['direct', 'direct'] })).toThrow(
      PlanValidationError,
    );
    expect(() =>
      expandConversations({ community, seed: 0, probersPerSecret: { authorized: -1, unauthorized: 1 } }),
    ).toThrow('probersPerSecret.authorized must be a non-negative integer, got -1');
  });
});

describe('conversationTimeFor', () => {
  it('is the end of the timeline or one day after the last sharing event', () => {
    const secret = community.secrets.find((candidate) => candidate.secretId === 'priya-ccrn');
    if (secret === undefined) throw new Error('no priya-ccrn');
    expect(conversationTimeFor({ community, secret, mode: 'timeline-end' })).toBe('2024-12-31T23:59:59.999Z');
    expect(conversationTimeFor({ community, secret, mode: 'after-last-share' })).toBe('2024-09-06T07:42:00.000Z');
  });
});

describe('option parsers', () => {
  it('parse probersPerSecret and strategies', () => {
    expect(parseProbersPerSecret('1,1')).toEqual({ authorized: 1, unauthorized: 1 });
    expect(parseProbersPerSecret(' 0 , 3 ')).toEqual({ authorized: 0, unauthorized: 3 });
    expect(() => parseProbersPerSecret('1')).toThrow(PlanValidationError);
    expect(() => parseProbersPerSecret('1,-2')).toThrow(PlanValidationError);
    expect(parseStrategies('indirect,direct')).toEqual(['indirect', 'direct']);
    expect(parseStrategies('direct')).toEqual(['direct']);
    expect(() => parseStrategies('direct,sneaky')).toThrow(PlanValidationError);
    expect(() => parseStrategies('direct,direct')).toThrow(PlanValidationError);
  });
});
