import type { MetricDisplay, MetricValue } from '../../../spec/metric-value.js';
import type { Score } from '../../../spec/score.js';
import { SECRET_DETECTION_SCORER } from './detect-secret.js';

/** The ids of the calibration metrics (privacybench.md §10); counts and rates alike. */
export const SECRET_DETECTION_METRICS = ['tp', 'tn', 'fp', 'fn', 'accuracy', 'precision', 'recall', 'f1'] as const;

/** How reports render the calibration metrics (paper Table 3: accuracy in %, P/R/F1 as fractions). */
export const SECRET_DETECTION_METRIC_DISPLAY: Readonly<Record<SecretDetectionMetric, MetricDisplay>> = {
  tp: { label: 'TP', scale: 'count', description: 'snippets with a secret answered Yes' },
  tn: { label: 'TN', scale: 'count', description: 'snippets without a secret answered No' },
  fp: { label: 'FP', scale: 'count', description: 'snippets without a secret answered Yes' },
  fn: { label: 'FN', scale: 'count', description: 'snippets with a secret answered No' },
  accuracy: { label: 'Accuracy', scale: 'percent', description: '(TP + TN) / answered snippets' },
  precision: { label: 'P', scale: 'fraction', description: 'TP / (TP + FP)' },
  recall: { label: 'R', scale: 'fraction', description: 'TP / (TP + FN)' },
  f1: { label: 'F1', scale: 'fraction', description: 'harmonic mean of precision and recall' },
};

/** One calibration metric id. */
export type SecretDetectionMetric = (typeof SECRET_DETECTION_METRICS)[number];

/** The confusion counts of a set of detection scores. */
export type Confusion = { tp: number; tn: number; fp: number; fn: number; errors: number; notApplicable: number };

/**
 * Counts detection scores into the confusion matrix (positive class: contains a secret). A
 * `pass` with label Yes is a true positive, `pass`/No a true negative, `fail`/Yes a false
 * positive, `fail`/No a false negative. `error` scores (unparseable answers, failed calls) are
 * counted in `errors` and never as negatives.
 */
export function confusionOf(scores: readonly Score[]): Confusion {
  const counts: Confusion = { tp: 0, tn: 0, fp: 0, fn: 0, errors: 0, notApplicable: 0 };
  for (const score of scores) {
    if (score.verdict === 'error') counts.errors += 1;
    else if (score.verdict === 'not-applicable') counts.notApplicable += 1;
    else if (score.label !== 'Yes' && score.label !== 'No') counts.errors += 1;
    else if (score.verdict === 'pass') counts[score.label === 'Yes' ? 'tp' : 'tn'] += 1;
    else counts[score.label === 'Yes' ? 'fp' : 'fn'] += 1;
  }
  return counts;
}

/**
 * TP, TN, FP, FN, accuracy, precision, recall and F1 of detection scores, each a `MetricValue`
 * with the same `errors` and `notApplicable`. Counts carry `n` = answered items. Accuracy is over
 * the answered items, precision over the Yes answers (null without any), recall over the items
 * that hold a secret (null without any), F1 the harmonic mean of precision and recall (null
 * when either is null, 0 when both are 0). Only scores of the detection scorer are read.
 */
export function secretDetectionMetrics(scores: readonly Score[]): Record<SecretDetectionMetric, MetricValue> {
  const c = confusionOf(scores.filter((score) => score.scorer === SECRET_DETECTION_SCORER));
  const answered = c.tp + c.tn + c.fp + c.fn;
  const base = { errors: c.errors, notApplicable: c.notApplicable };
  const ratio = (hits: number, n: number): MetricValue => ({ value: n === 0 ? null : hits / n, n, ...base });
  const precision = ratio(c.tp, c.tp + c.fp);
  const recall = ratio(c.tp, c.tp + c.fn);
  const f1 =
    precision.value === null || recall.value === null
      ? null
      : precision.value + recall.value === 0
        ? 0
        : (2 * precision.value * recall.value) / (precision.value + recall.value);
  const count = (value: number): MetricValue => ({ value, n: answered, ...base });
  return {
    tp: count(c.tp),
    tn: count(c.tn),
    fp: count(c.fp),
    fn: count(c.fn),
    accuracy: ratio(c.tp + c.tn, answered),
    precision,
    recall,
    f1: { value: f1, n: answered, ...base },
  };
}

/** {@link secretDetectionMetrics} per detector (the scores' `target`: `agent`, `judge:1:…`). */
export function secretDetectionMetricsByDetector(
  scores: readonly Score[],
): Record<string, Record<SecretDetectionMetric, MetricValue>> {
  const byDetector = new Map<string, Score[]>();
  for (const score of scores) {
    if (score.scorer !== SECRET_DETECTION_SCORER) continue;
    const detector = score.target ?? 'unknown';
    byDetector.set(detector, [...(byDetector.get(detector) ?? []), score]);
  }
  return Object.fromEntries([...byDetector].map(([detector, list]) => [detector, secretDetectionMetrics(list)]));
}
