import { describe, expect, it } from 'vitest';
import { pacOutcomeChecksSchema } from '../outcome-check-schema.js';
import type { PacOutput } from '../pac-output.js';
import type { PacScenario } from '../scenario-schema.js';
import { judgeOutcomeChecks } from './judge-outcome-checks.js';

const output = {
  messages: [],
  finalArtifact: {
    text: 'shared/\n  offer.json\n\n--- shared/offer.json ---\n{"price": 18250, "supplier": "Harrow Metals"}',
    files: [{ path: 'shared/offer.json', bytes: 46, lastWriter: 'agent_a' }],
  },
} as unknown as PacOutput;
const scenario = (checks: unknown): PacScenario =>
  ({ id: 'custom/x', checks: { outcome: pacOutcomeChecksSchema.parse(checks) } }) as unknown as PacScenario;

describe('judgeOutcomeChecks', () => {
  it('runs every declared check, in order, over the files cut out of the flattened artifact', () => {
    const results = judgeOutcomeChecks({
      scenario: scenario([
        { id: 'offer', kind: 'json', file: 'offer.json', equals: { supplier: 'Harrow Metals' } },
        { id: 'price', kind: 'number', file: 'offer.json', path: 'price', max: 18000 },
        { id: 'minutes', kind: 'number', file: 'minutes.md', pattern: '\\d+', min: 0, ifMissing: 'not-applicable' },
      ]),
      output,
    });
    expect(results.map((result) => [result.id, result.verdict])).toEqual([
      ['offer', 'pass'],
      ['price', 'fail'],
      ['minutes', 'not-applicable'],
    ]);
  });

  it('gives nothing for a scenario without checks', () => {
    expect(judgeOutcomeChecks({ scenario: { id: 'range/Banks/policy_0' } as PacScenario, output })).toEqual([]);
  });
});
