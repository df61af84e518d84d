import type { MetricValue } from '../spec/metric-value.js';
import type { Score, Verdict } from '../spec/score.js';

/** What a metric left without a value had to work with. */
export type NullReasonInput = {
  /** Units that were errors. */
  errors: number;
  /** Units that were not applicable. */
  notApplicable: number;
  /** The most common explanation of the errors (e.g. a judge's parse failure). */
  error?: string | undefined;
  /** The most common explanation of the not-applicable units (e.g. `filtered out: mismatch action`). */
  notApplicableReason?: string | undefined;
  /** What a unit is, singular (default `verdict`); the plural adds `s`. */
  unit?: string;
};

const counted = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;
const colon = (text: string | undefined) => (text === undefined || text === '' ? '' : `: ${text}`);
const parens = (text: string | undefined) => (text === undefined || text === '' ? '' : ` (${text})`);

/**
 * One sentence saying why a metric has no value, from its counts and the most common explanations:
 * `all 12 verdicts were error: no valid 'Answer:' line`, `all 3 verdicts were not-applicable:
 * filtered out: mismatch action`, `nothing to score: no verdicts`. Suites pass their own sentence
 * (through `withReason`) where a generic one would be vague (`no sample had a policy item`).
 */
export function nullReason({
  errors,
  notApplicable,
  error,
  notApplicableReason,
  unit = 'verdict',
}: NullReasonInput): string {
  const total = errors + notApplicable;
  if (total === 0) return `nothing to score: no ${unit}s`;
  const all = (count: number, what: string) =>
    count === 1 ? `the only ${unit} was ${what}` : `all ${count} ${unit}s were ${what}`;
  if (notApplicable === 0) return `${all(errors, 'error')}${colon(error)}`;
  if (errors === 0) return `${all(notApplicable, 'not-applicable')}${colon(notApplicableReason)}`;
  return `none of ${counted(total, unit)} could be scored: ${errors} error${parens(error)}, ${notApplicable} not-applicable${parens(notApplicableReason)}`;
}

/** The most common `explanation` among the scores with `verdict` (ties: the first seen). */
export function commonExplanation(scores: readonly Score[], verdict: Verdict): string | undefined {
  const counts = new Map<string, number>();
  for (const score of scores) {
    if (score.verdict !== verdict || score.explanation === undefined) continue;
    counts.set(score.explanation, (counts.get(score.explanation) ?? 0) + 1);
  }
  let best: string | undefined;
  let bestCount = 0;
  for (const [text, count] of counts) {
    if (count > bestCount) {
      best = text;
      bestCount = count;
    }
  }
  return best;
}

/** {@link nullReason} for a metric computed over `scores` (counts and explanations from them). */
export function reasonFromScores(scores: readonly Score[], unit?: string): string {
  let errors = 0;
  let notApplicable = 0;
  for (const score of scores) {
    if (score.verdict === 'not-applicable') notApplicable += 1;
    else if (score.verdict !== 'pass' && score.verdict !== 'fail') errors += 1;
    // A pass/fail without a finite value is counted as an error by the value-based metrics.
    else if (score.value === null || !Number.isFinite(score.value)) errors += 1;
  }
  return nullReason({
    errors,
    notApplicable,
    error: commonExplanation(scores, 'error'),
    notApplicableReason: commonExplanation(scores, 'not-applicable'),
    ...(unit === undefined ? {} : { unit }),
  });
}

/**
 * The metric with `reason` set when its value is null. A value over an empty denominator (`n` = 0)
 * is removed first: a count or rate of nothing is not 0. A metric with a value is returned as is;
 * `reason` may be a function so the sentence is only built when needed.
 */
export function withReason(metric: MetricValue, reason: string | (() => string)): MetricValue {
  if (metric.value !== null && (metric.n > 0 || metric.convention !== undefined)) return metric;
  const { stderr: _stderr, ci95: _ci95, ...rest } = metric;
  return { ...rest, value: null, reason: typeof reason === 'function' ? reason() : reason };
}

/**
 * A count as a metric: `count` units among `n`. With `n` = 0 the value is null (never a count of
 * 0 over nothing) and `emptyReason` says why, or a sentence from the other counts.
 */
export function countMetric({
  count,
  n,
  errors = 0,
  notApplicable = 0,
  emptyReason,
}: {
  count: number;
  n: number;
  errors?: number;
  notApplicable?: number;
  emptyReason?: string;
}): MetricValue {
  return withReason(
    { value: count, n, errors, notApplicable },
    () => emptyReason ?? nullReason({ errors, notApplicable, unit: 'unit' }),
  );
}
