import type { MetricValue } from '../spec/metric-value.js';
import type { Score } from '../spec/score.js';
import { reasonFromScores } from './null-reason.js';

/** The arithmetic mean, or null for an empty list (never 0). */
export function meanOf(numbers: readonly number[]): number | null {
  if (numbers.length === 0) return null;
  let sum = 0;
  for (const number of numbers) sum += number;
  return sum / numbers.length;
}

/**
 * The standard error of the mean, sd / sqrt(n) with the n-1 sample standard deviation;
 * undefined below two values, where it is not defined.
 */
export function standardErrorOf(numbers: readonly number[]): number | undefined {
  const mean = meanOf(numbers);
  if (mean === null || numbers.length < 2) return undefined;
  let squares = 0;
  for (const number of numbers) squares += (number - mean) ** 2;
  return Math.sqrt(squares / (numbers.length - 1)) / Math.sqrt(numbers.length);
}

/**
 * Mean of `value` over the pass/fail scores. Error and not-applicable scores are counted, not
 * averaged. A pass/fail score without a finite value breaks the score contract and is counted
 * as an error rather than silently dropped. With nothing to average the value is null and `reason`
 * says why.
 */
export function meanValue(scores: readonly Score[]): MetricValue {
  const values: number[] = [];
  let errors = 0;
  let notApplicable = 0;
  for (const score of scores) {
    if (score.verdict === 'error') errors += 1;
    else if (score.verdict === 'not-applicable') notApplicable += 1;
    else if (score.value === null || !Number.isFinite(score.value)) errors += 1;
    else values.push(score.value);
  }
  const stderr = standardErrorOf(values);
  const value = meanOf(values);
  return {
    value,
    n: values.length,
    errors,
    notApplicable,
    ...(stderr === undefined ? {} : { stderr }),
    ...(value === null ? { reason: reasonFromScores(scores) } : {}),
  };
}
