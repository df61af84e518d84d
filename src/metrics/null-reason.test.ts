import { describe, expect, it } from 'vitest';
import type { Score } from '../spec/score.js';
import { meanValue } from './mean.js';
import { commonExplanation, countMetric, nullReason, reasonFromScores, withReason } from './null-reason.js';
import { failRate } from './rate.js';

const error = (explanation?: string): Score => ({
  scorer: 't@1',
  verdict: 'error',
  value: null,
  ...(explanation === undefined ? {} : { explanation }),
});
const skipped = (explanation: string): Score => ({
  scorer: 't@1',
  verdict: 'not-applicable',
  value: null,
  explanation,
});

describe('nullReason', () => {
  it('says which kind of unit is missing and the most common explanation', () => {
    expect(nullReason({ errors: 12, notApplicable: 0, error: "no valid 'Answer:' line" })).toBe(
      "all 12 verdicts were error: no valid 'Answer:' line",
    );
    expect(nullReason({ errors: 0, notApplicable: 3, notApplicableReason: 'filtered out', unit: 'action' })).toBe(
      'all 3 actions were not-applicable: filtered out',
    );
    expect(nullReason({ errors: 1, notApplicable: 0 })).toBe('the only verdict was error');
    expect(nullReason({ errors: 2, notApplicable: 1, error: 'timeout', notApplicableReason: 'no action' })).toBe(
      'none of 3 verdicts could be scored: 2 error (timeout), 1 not-applicable (no action)',
    );
    expect(nullReason({ errors: 0, notApplicable: 0, unit: 'sample' })).toBe('nothing to score: no samples');
  });
});

describe('reasons from scores', () => {
  it('takes the most common explanation, first seen on ties', () => {
    const scores = [error('b'), error('a'), error('a'), error('b'), error()];
    expect(commonExplanation(scores, 'error')).toBe('b');
    expect(commonExplanation([error('a'), error('a'), error('b')], 'error')).toBe('a');
    expect(commonExplanation(scores, 'not-applicable')).toBeUndefined();
  });

  it('counts a pass without a value as an error, as meanValue does', () => {
    expect(reasonFromScores([{ scorer: 't@1', verdict: 'pass', value: null }])).toBe('the only verdict was error');
  });

  it('is what the rate and mean helpers attach to a null value', () => {
    const scores = [error('judge reply had no JSON'), error('judge reply had no JSON'), skipped('filtered out')];
    expect(failRate(scores).reason).toBe(
      'none of 3 verdicts could be scored: 2 error (judge reply had no JSON), 1 not-applicable (filtered out)',
    );
    expect(meanValue(scores).reason).toBe(failRate(scores).reason);
    expect(failRate([...scores, { scorer: 't@1', verdict: 'pass', value: 0 }]).reason).toBeUndefined();
  });
});

describe('withReason', () => {
  it('sets a reason only on a null value, and drops a value over an empty denominator', () => {
    expect(withReason({ value: 0.5, n: 2, errors: 0, notApplicable: 0 }, 'never')).toEqual({
      value: 0.5,
      n: 2,
      errors: 0,
      notApplicable: 0,
    });
    expect(withReason({ value: null, n: 0, errors: 2, notApplicable: 0, reason: 'generic' }, 'specific').reason).toBe(
      'specific',
    );
    expect(
      withReason({ value: 0, n: 0, errors: 0, notApplicable: 0, stderr: 0 }, () => 'no sample had an item'),
    ).toEqual({ value: null, n: 0, errors: 0, notApplicable: 0, reason: 'no sample had an item' });
  });

  it('countMetric never reports a count of nothing', () => {
    expect(countMetric({ count: 3, n: 5 })).toEqual({ value: 3, n: 5, errors: 0, notApplicable: 0 });
    expect(countMetric({ count: 0, n: 0, errors: 4 })).toEqual({
      value: null,
      n: 0,
      errors: 4,
      notApplicable: 0,
      reason: 'all 4 units were error',
    });
    expect(countMetric({ count: 0, n: 0, emptyReason: 'every tree failed' }).reason).toBe('every tree failed');
  });
});
