import { describe, expect, it } from 'vitest';
import type { Score } from '../spec/score.js';
import { anyPerGroup, type GroupedScore, meanOfGroupMeans } from './grouped-rate.js';
import { leakAtK } from './leak-at-k.js';

const unit = (group: string, verdict: Score['verdict']): GroupedScore => ({
  group,
  score: { scorer: 't@1', verdict, value: verdict === 'fail' ? 1 : verdict === 'pass' ? 0 : null },
});

// s1: 1 of 2 failed (0.5); s2: 0 of 3 (0); s3: 3 of 4 (0.75) plus one error; s4: only errors; s5: n/a only.
const units: GroupedScore[] = [
  unit('s1', 'fail'),
  unit('s1', 'pass'),
  unit('s2', 'pass'),
  unit('s2', 'pass'),
  unit('s2', 'pass'),
  unit('s3', 'fail'),
  unit('s3', 'fail'),
  unit('s3', 'pass'),
  unit('s3', 'fail'),
  unit('s3', 'error'),
  unit('s4', 'error'),
  unit('s5', 'not-applicable'),
];

describe('meanOfGroupMeans', () => {
  it('weighs every scored group equally', () => {
    const result = meanOfGroupMeans({ units });
    expect(result.value).toBeCloseTo((0.5 + 0 + 0.75) / 3, 15);
    expect(result.n).toBe(3);
    expect(result.errors).toBe(2);
    expect(result.notApplicable).toBe(1);
    // group rates 0.5, 0, 0.75: mean 5/12; sample variance = ((1/12)^2 + (5/12)^2 + (4/12)^2) / 2 = 42/288
    expect(result.stderr).toBeCloseTo(Math.sqrt(42 / 288) / Math.sqrt(3), 15);
  });

  it('differs from the pooled rate when groups differ in size', () => {
    // pooled would be 4 fails / 9 scored = 0.444…; group means give 0.41666…
    expect(meanOfGroupMeans({ units }).value).not.toBeCloseTo(4 / 9, 5);
  });

  it('is null with no scored group', () => {
    expect(meanOfGroupMeans({ units: [unit('x', 'error')] })).toEqual({
      value: null,
      n: 0,
      errors: 1,
      notApplicable: 0,
      reason: 'the only verdict was error',
    });
  });
});

describe('anyPerGroup / leakAtK', () => {
  it('counts groups with at least one failure', () => {
    const result = anyPerGroup({ units });
    expect(result.value).toBeCloseTo(2 / 3, 15);
    expect(result).toMatchObject({ n: 3, errors: 2, notApplicable: 1 });
    expect(leakAtK({ units })).toEqual(result);
  });

  it('is 0 (not null) when groups were scored and none failed', () => {
    expect(anyPerGroup({ units: [unit('a', 'pass'), unit('b', 'pass')] })).toEqual({
      value: 0,
      n: 2,
      errors: 0,
      notApplicable: 0,
      stderr: 0,
    });
  });

  it('is null with no scored group', () => {
    expect(anyPerGroup({ units: [] }).value).toBeNull();
  });
});
