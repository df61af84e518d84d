import { describe, expect, it } from 'vitest';
import { percentile } from './percentile.js';

describe('percentile', () => {
  it('interpolates between order statistics (type 7)', () => {
    const sorted = [1, 2, 3, 4, 5];
    expect(percentile({ sorted, p: 0.5 })).toBe(3);
    expect(percentile({ sorted, p: 0.025 })).toBeCloseTo(1.1, 12); // h = 4 · 0.025 = 0.1
    expect(percentile({ sorted, p: 0.975 })).toBeCloseTo(4.9, 12);
    expect(percentile({ sorted, p: 1 })).toBe(5);
  });

  it('is null for no numbers', () => {
    expect(percentile({ sorted: [], p: 0.5 })).toBeNull();
  });
});
