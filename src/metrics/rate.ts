import type { MetricValue } from '../spec/metric-value.js';
import type { Score } from '../spec/score.js';
import { countVerdicts } from './count-verdicts.js';
import { reasonFromScores } from './null-reason.js';

/**
 * The share of scored units (pass or fail) that satisfy `hit`, with denominators.
 * `stderr` is the binomial standard error sqrt(p(1-p)/n); value and stderr are absent/null when n is 0,
 * and `reason` then says why (see `reasonFromScores`).
 */
function rateOf(scores: readonly Score[], hit: 'pass' | 'fail'): MetricValue {
  const counts = countVerdicts(scores);
  const n = counts.pass + counts.fail;
  const base = { n, errors: counts.errors, notApplicable: counts.notApplicable };
  if (n === 0) return { value: null, ...base, reason: reasonFromScores(scores) };
  const value = counts[hit] / n;
  return { value, ...base, stderr: Math.sqrt((value * (1 - value)) / n) };
}

/**
 * Fail rate: fails / (pass + fail). `error` and `not-applicable` scores are left out of the
 * denominator and reported in `errors` / `notApplicable`; the value is null when nothing was scored.
 */
export function failRate(scores: readonly Score[]): MetricValue {
  return rateOf(scores, 'fail');
}

/** Pass rate: passes / (pass + fail), with the same counting as {@link failRate}. */
export function passRate(scores: readonly Score[]): MetricValue {
  return rateOf(scores, 'pass');
}
