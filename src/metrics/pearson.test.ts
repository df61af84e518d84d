import { describe, expect, it } from 'vitest';
import { pearson } from './pearson.js';

describe('pearson', () => {
  it('is 1 and -1 for exact linear relations', () => {
    expect(pearson({ x: [1, 2, 3], y: [2, 4, 6] })).toBeCloseTo(1, 15);
    expect(pearson({ x: [1, 2, 3], y: [3, 2, 1] })).toBeCloseTo(-1, 15);
  });

  it('matches a hand-computed value', () => {
    // x: 1,2,3,4 (mean 2.5); y: 1,3,2,4 (mean 2.5)
    // dx: -1.5,-.5,.5,1.5; dy: -1.5,.5,-.5,1.5; cov = 2.25-.25-.25+2.25 = 4; varX = varY = 5 → r = 0.8
    expect(pearson({ x: [1, 2, 3, 4], y: [1, 3, 2, 4] })).toBeCloseTo(0.8, 15);
  });

  it('is null for fewer than two points or zero variance', () => {
    expect(pearson({ x: [1], y: [2] })).toBeNull();
    expect(pearson({ x: [], y: [] })).toBeNull();
    expect(pearson({ x: [1, 1, 1], y: [1, 2, 3] })).toBeNull();
    expect(pearson({ x: [1, 2, 3], y: [5, 5, 5] })).toBeNull();
  });

  it('rejects series of different lengths', () => {
    expect(() => pearson({ x: [1, 2], y: [1] })).toThrow(RangeError);
  });
});
