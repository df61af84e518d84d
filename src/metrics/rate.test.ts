import { describe, expect, it } from 'vitest';
import type { Score } from '../spec/score.js';
import { countVerdicts } from './count-verdicts.js';
import { failRate, passRate } from './rate.js';

const score = (verdict: Score['verdict']): Score => ({
  scorer: 'test@1',
  verdict,
  value: verdict === 'pass' ? 0 : verdict === 'fail' ? 1 : null,
});

describe('failRate / passRate', () => {
  const scores = [score('fail'), score('pass'), score('pass'), score('fail'), score('error'), score('not-applicable')];

  it('divides by pass + fail and reports the excluded units', () => {
    expect(failRate(scores)).toEqual({ value: 0.5, n: 4, errors: 1, notApplicable: 1, stderr: 0.25 });
    expect(passRate(scores)).toEqual({ value: 0.5, n: 4, errors: 1, notApplicable: 1, stderr: 0.25 });
  });

  it('gives exact shares for an uneven split', () => {
    const uneven = [score('fail'), score('pass'), score('pass'), score('pass')];
    expect(failRate(uneven).value).toBe(0.25);
    expect(passRate(uneven).value).toBe(0.75);
    expect(failRate(uneven).stderr).toBeCloseTo(Math.sqrt((0.25 * 0.75) / 4), 15);
  });

  it('is null, not zero, when nothing was scored', () => {
    expect(failRate([score('error'), score('error')])).toEqual({
      value: null,
      n: 0,
      errors: 2,
      notApplicable: 0,
      reason: 'all 2 verdicts were error',
    });
    expect(passRate([])).toEqual({
      value: null,
      n: 0,
      errors: 0,
      notApplicable: 0,
      reason: 'nothing to score: no verdicts',
    });
  });

  it('counts each verdict', () => {
    expect(countVerdicts(scores)).toEqual({ pass: 2, fail: 2, errors: 1, notApplicable: 1 });
  });
});
