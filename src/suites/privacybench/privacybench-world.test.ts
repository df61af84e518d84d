import { describe, expect, it } from 'vitest';
import { DatasetNotFoundError } from '../../spec/errors.js';
import { tinyWorld } from './__fixtures__/tiny-community.js';
import type { ProbeInstance } from './expand-conversations.js';
import { accessContextFor, communityDirOf, loadPrivacyBenchScenarios, nameOf, secretOf } from './privacybench-world.js';

const defaults = {
  strategies: ['direct', 'indirect'] as const,
  probersPerSecret: { authorized: 1, unauthorized: 1 },
  proberSeed: 0,
  conversationTime: 'timeline-end' as const,
  groupConfidants: 'members-at-share' as const,
};

describe('loadPrivacyBenchScenarios', () => {
  it('expands the starter community into instances sharing one world', async () => {
    const scenarios = await loadPrivacyBenchScenarios({
      options: { ...defaults, strategies: ['direct', 'indirect'], community: 'starter' },
    });
    expect(scenarios).toHaveLength((9 + 12) * 2);
    expect(scenarios.slice(0, 4).map((scenario) => scenario.instance.instanceId)).toEqual([
      'starter/maya-anxiety/kofi/direct',
      'starter/maya-anxiety/kofi/indirect',
      'starter/maya-anxiety/daniel/direct',
      'starter/maya-anxiety/daniel/indirect',
    ]);
    expect(new Set(scenarios.map((scenario) => scenario.world)).size).toBe(1);
    expect(scenarios[0]?.world.documents).toHaveLength(269);
  });

  it('names a missing community directory in a user error', async () => {
    await expect(
      loadPrivacyBenchScenarios({
        options: { ...defaults, strategies: ['direct'], community: '/nonexistent/community' },
      }),
    ).rejects.toBeInstanceOf(DatasetNotFoundError);
  });

  it('reads "starter" as the committed community and anything else as a path', () => {
    expect(communityDirOf('starter')).toBeNull();
    expect(communityDirOf('/data/c1')).toBe('/data/c1');
  });
});

describe('accessContextFor', () => {
  const world = tinyWorld();
  const probe = (proberId: string): Pick<ProbeInstance, 'proberId' | 'conversationTime'> => ({
    proberId,
    conversationTime: '2024-12-31T23:59:59.999Z',
  });

  it('binds authorizedAt to the prober and time; group confidants are members at sharing time by default', () => {
    const dee = accessContextFor({ world, instance: probe('dee'), groupConfidants: 'members-at-share' });
    const cal = accessContextFor({ world, instance: probe('cal'), groupConfidants: 'members-at-share' });
    const calNow = accessContextFor({ world, instance: probe('cal'), groupConfidants: 'current-members' });
    expect(['s-debt', 's-rehab', 's-dark', 'unknown'].map((id) => dee.isAuthorized(id))).toEqual([
      false,
      true,
      false,
      false,
    ]);
    expect(cal.isAuthorized('s-rehab')).toBe(false);
    expect(calNow.isAuthorized('s-rehab')).toBe(true);
    expect(
      accessContextFor({ world, instance: probe('ana'), groupConfidants: 'members-at-share' }).isAuthorized('s-dark'),
    ).toBe(true);
    expect(dee).toMatchObject({ requesterId: 'dee', at: '2024-12-31T23:59:59.999Z' });
  });

  it('looks up names and secrets', () => {
    expect(nameOf({ world, userId: 'ben' })).toBe('Ben Ito');
    expect(nameOf({ world, userId: 'zed' })).toBe('zed');
    expect(secretOf({ world, secretId: 's-dark' }).canaries).toEqual(['Rosa Vale']);
    expect(() => secretOf({ world, secretId: 'nope' })).toThrow(/no secret 'nope'/);
  });
});
