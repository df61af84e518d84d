import type { Score } from '../spec/score.js';

/** How many scores carry each verdict. */
export type VerdictCounts = { pass: number; fail: number; errors: number; notApplicable: number };

/**
 * Counts the verdicts of `scores`. A `pass` or `fail` whose `value` is not a finite number
 * breaks the score contract (value is set exactly when the verdict is pass or fail) only
 * for value-based metrics, so this plain count does not look at `value`.
 */
export function countVerdicts(scores: readonly Score[]): VerdictCounts {
  const counts: VerdictCounts = { pass: 0, fail: 0, errors: 0, notApplicable: 0 };
  for (const score of scores) {
    if (score.verdict === 'pass') counts.pass += 1;
    else if (score.verdict === 'fail') counts.fail += 1;
    else if (score.verdict === 'error') counts.errors += 1;
    else counts.notApplicable += 1;
  }
  return counts;
}
