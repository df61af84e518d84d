import { describe, expect, it } from 'vitest';
import { errored, outcome } from './__fixtures__/outcomes.js';
import { gradedPrivacyMetric, runGradedPrivacy } from './graded-metrics.js';

describe('runGradedPrivacy', () => {
  it('takes the lowest evaluated agent, and only the initiator under a variant that judges it alone', () => {
    const run = outcome({ graded: { agent_a: 0.75, agent_b: 0.5 } });
    expect(runGradedPrivacy({ outcome: run, policy: 'exclude' })).toMatchObject({ verdict: 'fail', value: 0.5 });
    const initiatorOnly = { ...run, privacyEvaluation: 'initiator' as const };
    expect(runGradedPrivacy({ outcome: initiatorOnly, policy: 'exclude' })).toMatchObject({ value: 0.75 });
    const clean = outcome({ graded: { agent_a: 1, agent_b: 1 } });
    expect(runGradedPrivacy({ outcome: clean, policy: 'exclude' })).toMatchObject({ verdict: 'pass', value: 1 });
  });

  it('is an error when an evaluated agent has no graded score or a failed one, never a number', () => {
    const cases: Array<Record<string, number | 'error'>> = [{ agent_a: 1 }, { agent_a: 1, agent_b: 'error' }];
    for (const graded of cases) {
      expect(runGradedPrivacy({ outcome: outcome({ graded }), policy: 'exclude' })).toMatchObject({
        verdict: 'error',
        value: null,
      });
    }
  });
});

describe('gradedPrivacyMetric', () => {
  it('is absent when no successful run has a graded score', () => {
    expect(gradedPrivacyMetric({ outcomes: [outcome(), errored()], policy: 'exclude' })).toBeUndefined();
  });

  it('counts errored runs by the error policy and privacy-free runs as not applicable', () => {
    const outcomes = [
      outcome({ graded: { agent_a: 0.5, agent_b: 1 } }),
      outcome({ graded: { agent_a: 1, agent_b: 1 } }),
      errored(),
      outcome({ privacyEvaluation: 'none', graded: { agent_a: 1 } }),
    ];
    expect(gradedPrivacyMetric({ outcomes, policy: 'exclude' })).toMatchObject({
      value: 0.75,
      n: 2,
      errors: 1,
      notApplicable: 1,
    });
    expect(gradedPrivacyMetric({ outcomes, policy: 'include' })).toMatchObject({
      value: 0.5,
      n: 3,
      errors: 0,
      notApplicable: 1,
    });
  });
});
