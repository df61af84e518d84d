import { describe, expect, it } from 'vitest';
import type { Score } from '../spec/score.js';
import { meanOf, meanValue, standardErrorOf } from './mean.js';

const valued = (value: number, verdict: 'pass' | 'fail' = 'pass'): Score => ({ scorer: 't@1', verdict, value });

describe('meanOf', () => {
  it('averages and returns null for nothing', () => {
    expect(meanOf([1, 2, 3, 6])).toBe(3);
    expect(meanOf([])).toBeNull();
  });
});

describe('standardErrorOf', () => {
  it('uses the n-1 standard deviation', () => {
    // values 2, 4: mean 3, sample variance 2, sd sqrt(2), stderr sqrt(2)/sqrt(2) = 1
    expect(standardErrorOf([2, 4])).toBe(1);
    expect(standardErrorOf([5])).toBeUndefined();
  });
});

describe('meanValue', () => {
  it('averages pass/fail values and counts the rest', () => {
    const scores: Score[] = [
      valued(3),
      valued(1, 'fail'),
      valued(2),
      { scorer: 't@1', verdict: 'error', value: null },
      { scorer: 't@1', verdict: 'not-applicable', value: null },
      { scorer: 't@1', verdict: 'not-applicable', value: null },
    ];
    expect(meanValue(scores)).toEqual({ value: 2, n: 3, errors: 1, notApplicable: 2, stderr: 1 / Math.sqrt(3) });
  });

  it('counts a pass without a value as an error instead of a zero', () => {
    const result = meanValue([valued(4), { scorer: 't@1', verdict: 'pass', value: null }]);
    expect(result).toEqual({ value: 4, n: 1, errors: 1, notApplicable: 0 });
  });

  it('is null when nothing was scored', () => {
    expect(meanValue([{ scorer: 't@1', verdict: 'error', value: null }]).value).toBeNull();
  });
});
