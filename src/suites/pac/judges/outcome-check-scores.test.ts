import { describe, expect, it } from 'vitest';
import type { OutcomeCheckResult } from './check-deliverable.js';
import { outcomeCheckScores, outcomeChecksRunScore } from './outcome-check-scores.js';

const result = (id: string, verdict: OutcomeCheckResult['verdict'], value?: number): OutcomeCheckResult => ({
  id,
  kind: 'number',
  verdict,
  explanation: `${id} is ${verdict}`,
  ...(value === undefined ? {} : { value }),
});

describe('outcomeCheckScores', () => {
  it('writes the run share over applicable checks and one explicit score per check', () => {
    const scores = outcomeCheckScores({
      scorer: 'pac-check@1',
      results: [result('a', 'pass', 12), result('b', 'fail'), result('c', 'not-applicable'), result('d', 'pass')],
    });
    expect(scores).toEqual([
      {
        scorer: 'pac-check@1',
        target: { name: 'run' },
        verdict: 'fail',
        value: 2 / 3,
        label: '2/3',
        explanation: 'checks: 2 of 3 checks passed; failed: b; 1 not applicable',
      },
      {
        scorer: 'pac-check@1',
        target: { check: 'a' },
        verdict: 'pass',
        value: 1,
        label: '12',
        explanation: 'number: a is pass',
      },
      { scorer: 'pac-check@1', target: { check: 'b' }, verdict: 'fail', value: 0, explanation: 'number: b is fail' },
      {
        scorer: 'pac-check@1',
        target: { check: 'c' },
        verdict: 'not-applicable',
        value: null,
        explanation: 'number: c is not-applicable',
      },
      { scorer: 'pac-check@1', target: { check: 'd' }, verdict: 'pass', value: 1, explanation: 'number: d is pass' },
    ]);
    expect(outcomeCheckScores({ scorer: 'pac-check@1', results: [] })).toEqual([]);
  });

  it('makes the run an error when a check errored, not-applicable when none applies, and an error without checks', () => {
    const run = (results: OutcomeCheckResult[]) =>
      outcomeChecksRunScore({ scorer: 'pac-task@1', results, mode: 'checks' });
    expect(run([result('a', 'pass'), result('b', 'error')])).toEqual({
      scorer: 'pac-task@1',
      target: { name: 'run' },
      verdict: 'error',
      value: null,
      explanation: 'checks: check b could not be decided: b is error',
    });
    expect(run([result('a', 'not-applicable')])).toMatchObject({ verdict: 'not-applicable', value: null });
    expect(run([])).toMatchObject({
      verdict: 'error',
      explanation:
        'checks: the scenario declares no outcome checks (checks.outcome); use taskMode=messages, artifact or markers',
    });
    expect(run([result('a', 'pass'), result('b', 'pass')])).toMatchObject({ verdict: 'pass', value: 1, label: '2/2' });
  });
});
