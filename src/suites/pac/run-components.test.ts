import { describe, expect, it } from 'vitest';
import { errored, outcome, privacy, scored } from './__fixtures__/outcomes.js';
import { pacRunComponents } from './run-components.js';

const verdicts = (components: ReturnType<typeof pacRunComponents>) =>
  Object.fromEntries(Object.entries(components).map(([key, score]) => [key, [score.verdict, score.value]]));

describe('pacRunComponents (§8.1)', () => {
  it('derives ts_r, p_r/2 and the three booleans of a successful run', () => {
    expect(verdicts(pacRunComponents({ outcome: scored({ achieved: 4, level: 1 }), policy: 'exclude' }))).toEqual({
      ts: ['fail', 0.8],
      ps: ['fail', 0.5],
      taskOk: ['fail', 0],
      privOk: ['fail', 0],
      jointOk: ['fail', 0],
    });
    expect(verdicts(pacRunComponents({ outcome: scored({ achieved: 5, level: 2 }), policy: 'include' }))).toEqual({
      ts: ['pass', 1],
      ps: ['pass', 1],
      taskOk: ['pass', 1],
      privOk: ['pass', 1],
      jointOk: ['pass', 1],
    });
  });

  it('excludes or zeroes an errored run by policy', () => {
    expect(verdicts(pacRunComponents({ outcome: errored(), policy: 'exclude' }))).toEqual({
      ts: ['error', null],
      ps: ['error', null],
      taskOk: ['error', null],
      privOk: ['error', null],
      jointOk: ['error', null],
    });
    expect(verdicts(pacRunComponents({ outcome: errored(), policy: 'include' }))).toEqual({
      ts: ['fail', 0],
      ps: ['fail', 0],
      taskOk: ['fail', 0],
      privOk: ['fail', 0],
      jointOk: ['fail', 0],
    });
  });

  it('leaves a run with a failed judgment out of that component and of jointOk, under both policies', () => {
    for (const policy of ['exclude', 'include'] as const) {
      const taskError = pacRunComponents({
        outcome: outcome({ task: { verdict: 'error', ts: null } }),
        policy,
      });
      expect(verdicts(taskError)).toEqual({
        ts: ['error', null],
        ps: ['pass', 1],
        taskOk: ['error', null],
        privOk: ['pass', 1],
        jointOk: ['error', null],
      });
      const privacyError = pacRunComponents({
        outcome: outcome({ task: { verdict: 'fail', ts: 0.2 }, privacy: [privacy('agent_a', 'error')] }),
        policy,
      });
      expect(verdicts(privacyError)).toMatchObject({
        ts: ['fail', 0.2],
        ps: ['error', null],
        jointOk: ['error', null],
      });
    }
  });

  it('keeps privacy not-applicable when the variant judges none, even for errored runs', () => {
    const free = pacRunComponents({ outcome: outcome({ privacyEvaluation: 'none', privacy: [] }), policy: 'exclude' });
    expect(verdicts(free)).toEqual({
      ts: ['pass', 1],
      ps: ['not-applicable', null],
      taskOk: ['pass', 1],
      privOk: ['not-applicable', null],
      jointOk: ['not-applicable', null],
    });
    const freeError = pacRunComponents({ outcome: errored({ privacyEvaluation: 'none' }), policy: 'include' });
    expect(verdicts(freeError)).toMatchObject({ ts: ['fail', 0], ps: ['not-applicable', null] });
  });
});
