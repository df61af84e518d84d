import { describe, expect, it } from 'vitest';
import { draftFixture } from './__fixtures__/draft-fixture.js';
import type { SecretsOutput } from './datagen-schemas.js';
import { secretCounts, secretsPhase, secretsProblems, seededFraction, seededRound } from './secrets-phase.js';

type SecretAnswer = SecretsOutput['secrets'][number];
const secret = (
  kind: SecretAnswer['kind'],
  sharing: SecretAnswer['sharing'],
  hint: SecretAnswer['hintPurchase'] = null,
): SecretAnswer => ({
  kind,
  content: `a ${kind} secret`,
  coreComponents: ['core'],
  probeHint: 'lately',
  sharing,
  hintPurchase: hint,
});

describe('secrets phase', () => {
  it('rounds fractional rates with a seeded draw', () => {
    expect(seededRound({ value: 2, parts: ['x'] })).toBe(2);
    const draws = Array.from({ length: 2000 }, (_, index) => seededRound({ value: 1.25, parts: ['rate', index] }));
    expect(new Set(draws)).toEqual(new Set([1, 2]));
    const ups = draws.filter((draw) => draw === 2).length / draws.length;
    expect(ups).toBeGreaterThan(0.2);
    expect(ups).toBeLessThan(0.3);
    expect(seededFraction(['a'])).toBe(seededFraction(['a']));
  });

  it('gives no group secrets to a member outside every group, and no person secrets without ties', () => {
    const draft = draftFixture({ parameters: { secretsPerUser: { person: 2, group: 1, ai: 1 } } });
    expect(secretCounts(draft, 'u01')).toEqual({ person: 2, group: 1, ai: 1 });
    draft.community.groups[0]!.memberships = draft.community.groups[0]!.memberships.filter((m) => m.userId !== 'u02');
    draft.community.relationships = draft.community.relationships.filter((edge) => edge.targetId !== 'u02');
    expect(secretCounts(draft, 'u02')).toEqual({ person: 0, group: 0, ai: 1 });
  });

  it('checks counts and audiences per kind, and group dates with another member present', () => {
    const draft = draftFixture({ parameters: { secretsPerUser: { person: 1, group: 1, ai: 0 } } });
    const problems = secretsProblems({
      output: {
        secrets: [
          secret('person', [{ confidantId: null, groupId: 'g1', date: '2024-02-01', channel: null }]),
          secret('group', [{ confidantId: null, groupId: 'g1', date: '2022-02-01', channel: null }]),
          secret('ai', [{ confidantId: 'u02', groupId: null, date: '2024-02-01', channel: null }]),
        ],
      },
      counts: { person: 1, group: 1, ai: 0 },
      draft,
      ownerId: 'u03',
    });
    expect(problems).toEqual([
      "give exactly 0 secret(s) of kind 'ai', not 1",
      "secret 1, sharing 1: a 'person' secret names a confidantId and no groupId",
      "secret 2, sharing 1: on 2022-02-01 the owner and at least one other member must be in group 'g1'",
      "secret 3, sharing 1: an 'ai' secret names neither a confidantId nor a groupId",
    ]);
  });

  it('applies secrets with provisional sharing events and a tagged hint purchase before the first share', () => {
    const draft = draftFixture({ parameters: { secretsPerUser: { person: 1, group: 0, ai: 1 } } });
    const unit = secretsPhase.units(draft).find((candidate) => candidate.key === 'secrets/u01');
    expect(unit?.task).toMatchObject({ ownerId: 'u01', counts: { person: 1, group: 0, ai: 1 } });
    unit?.apply(draft, {
      secrets: [
        secret('person', [{ confidantId: 'u03', groupId: null, date: '2024-03-10', channel: 'email' }], {
          title: 'Boxes',
          description: 'Moving boxes',
          brand: 'Acme',
          categories: ['home'],
        }),
        secret('ai', [{ confidantId: null, groupId: null, date: '2024-05-01', channel: null }]),
      ],
    });
    expect(
      draft.community.secrets.map((s) => [s.secretId, s.sharingEvents[0]?.eventId, s.sharingEvents[0]?.sharedAt]),
    ).toEqual([
      ['u01-s1', 'u01-s1-e1', '2024-03-10T12:00:00Z'],
      ['u01-s2', 'u01-s2-e1', '2024-05-01T12:00:00Z'],
    ]);
    expect(draft.community.secrets[0]?.sharingEvents[0]?.audience).toEqual({ kind: 'users', userIds: ['u03'] });
    expect(draft.eventChannels).toEqual({ 'u01-s1-e1': 'email' });
    const hint = draft.documents[0];
    expect(hint).toMatchObject({ docId: 'hint-u01-s1', type: 'purchase', ownerId: 'u01', participants: ['u01'] });
    expect(hint && hint.time < '2024-03-10' && hint.time >= '2024-02-25').toBe(true);
    expect(draft.owners.secrets).toEqual(['secrets/u01', 'secrets/u01']);
    expect(draft.owners.documents['hint-u01-s1']).toBe('secrets/u01');
  });
});
