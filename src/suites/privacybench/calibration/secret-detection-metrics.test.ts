import { describe, expect, it } from 'vitest';
import type { Score } from '../../../spec/score.js';
import { readLegacyScoreTarget } from '../../../spec/score-target.js';
import { SECRET_DETECTION_SCORER } from './detect-secret.js';
import {
  confusionOf,
  SECRET_DETECTION_METRIC_DEFINITIONS,
  SECRET_DETECTION_METRICS,
  secretDetectionMetrics,
  secretDetectionMetricsByDetector,
} from './secret-detection-metrics.js';

const score = (verdict: Score['verdict'], label: string | undefined, target = 'agent'): Score => ({
  scorer: SECRET_DETECTION_SCORER,
  target: readLegacyScoreTarget(target),
  verdict,
  value: verdict === 'pass' ? 1 : verdict === 'fail' ? 0 : null,
  ...(label === undefined ? {} : { label }),
});

const scores: Score[] = [
  ...Array.from({ length: 6 }, () => score('pass', 'Yes')),
  ...Array.from({ length: 5 }, () => score('pass', 'No')),
  score('fail', 'Yes'),
  score('fail', 'Yes'),
  score('fail', 'No'),
  score('error', undefined),
  { ...score('pass', 'Yes'), scorer: 'other@1' },
];

describe('secretDetectionMetrics', () => {
  it('counts the confusion cells; errors are never negatives', () => {
    expect(confusionOf(scores.slice(0, -1))).toEqual({ tp: 6, tn: 5, fp: 2, fn: 1, errors: 1, notApplicable: 0 });
  });

  it('gives accuracy, precision, recall and F1 with their denominators', () => {
    const metrics = secretDetectionMetrics(scores);
    expect(metrics.tp).toEqual({ value: 6, n: 14, errors: 1, notApplicable: 0 });
    expect(metrics.fn).toEqual({ value: 1, n: 14, errors: 1, notApplicable: 0 });
    expect(metrics.accuracy).toEqual({ value: 11 / 14, n: 14, errors: 1, notApplicable: 0 });
    expect(metrics.precision).toEqual({ value: 6 / 8, n: 8, errors: 1, notApplicable: 0 });
    expect(metrics.recall).toEqual({ value: 6 / 7, n: 7, errors: 1, notApplicable: 0 });
    const p = 6 / 8;
    const r = 6 / 7;
    expect(metrics.f1.value).toBeCloseTo((2 * p * r) / (p + r), 12);
  });

  it('leaves rates null without a denominator, and F1 0 when precision and recall are 0', () => {
    const none = secretDetectionMetrics([score('error', undefined)]);
    const why = 'no snippet was answered: the only answer was error';
    expect(none.accuracy).toEqual({ value: null, n: 0, errors: 1, notApplicable: 0, reason: why });
    expect(none.f1).toMatchObject({ value: null, reason: why });
    // A count over no answered snippet is not 0.
    expect(none.tp).toMatchObject({ value: null, n: 0, reason: why });
    const noYes = secretDetectionMetrics([score('pass', 'No')]);
    expect(noYes.precision).toMatchObject({
      value: null,
      reason: 'no detector answered Yes, so precision is undefined',
    });
    expect(noYes.f1.reason).toBe('F1 needs precision and recall: no detector answered Yes, so precision is undefined');
    const allWrong = secretDetectionMetrics([score('fail', 'Yes'), score('fail', 'No')]);
    expect(allWrong.precision.value).toBe(0);
    expect(allWrong.recall.value).toBe(0);
    expect(allWrong.f1.value).toBe(0);
  });

  it('returns every metric id, each with a display', () => {
    expect(Object.keys(secretDetectionMetrics(scores))).toEqual([...SECRET_DETECTION_METRICS]);
    expect(SECRET_DETECTION_METRIC_DEFINITIONS.map((metric) => metric.id)).toEqual([...SECRET_DETECTION_METRICS]);
    expect(SECRET_DETECTION_METRIC_DEFINITIONS.find((metric) => metric.id === 'accuracy')?.scale).toBe('percent');
  });

  it('splits by detector', () => {
    const split = secretDetectionMetricsByDetector([score('pass', 'Yes'), score('fail', 'Yes', 'judge:1:m:x')]);
    expect(Object.keys(split).sort()).toEqual(['agent', 'judge:1:m:x']);
    expect(split['judge:1:m:x']?.fp.value).toBe(1);
  });
});
