import { describe, expect, it } from 'vitest';
import { pairedBootstrap } from './paired-bootstrap.js';

/** A random source that replays `values` in order. */
const replay = (values: number[]) => {
  let index = 0;
  return () => values[index++ % values.length] ?? 0;
};

describe('pairedBootstrap', () => {
  it('a constant difference has a zero-width interval at that difference', () => {
    const units = [0, 1, 0, 1].map((a) => ({ a, b: a + 0.25 }));
    expect(pairedBootstrap({ units, resamples: 50 })).toEqual({
      difference: 0.25,
      ci95: { lower: 0.25, upper: 0.25 },
      resamples: 50,
      clusters: 4,
    });
  });

  it('takes type-7 percentiles of the resampled differences', () => {
    // Two units with differences 0 and 1. Draws below 0.5 pick the first, others the second.
    // Resamples: (0,0) → 0, (0,1) → 0.5, (1,1) → 1, (1,1) → 1, (0,1) → 0.5. Sorted: 0, .5, .5, 1, 1.
    const random = replay([0.1, 0.2, 0.1, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.1]);
    const result = pairedBootstrap({
      units: [
        { a: 1, b: 1 },
        { a: 0, b: 1 },
      ],
      resamples: 5,
      random,
    });
    expect(result?.difference).toBe(0.5);
    expect(result?.ci95.lower).toBeCloseTo(0.05, 12); // h = 4 · 0.025 = 0.1 → 0 + 0.1 · 0.5
    expect(result?.ci95.upper).toBeCloseTo(1, 12);
  });

  it('resamples whole clusters: units of one scenario move together', () => {
    // Both units of s1 differ by 1, s2 by 0: every resample's difference is 0, 0.5 or 1 (never 0.25 or 0.75).
    const units = [
      { a: 0, b: 1, cluster: 's1' },
      { a: 0, b: 1, cluster: 's1' },
      { a: 1, b: 1, cluster: 's2' },
      { a: 1, b: 1, cluster: 's2' },
    ];
    const random = replay([0.1, 0.9]);
    const result = pairedBootstrap({ units, resamples: 3, random });
    expect(result).toEqual({ difference: 0.5, ci95: { lower: 0.5, upper: 0.5 }, resamples: 3, clusters: 2 });
  });

  it('is the same on every call with the default seed, and null for no units', () => {
    const units = Array.from({ length: 30 }, (_, index) => ({ a: index % 3 === 0 ? 1 : 0, b: index % 2 }));
    expect(pairedBootstrap({ units })).toEqual(pairedBootstrap({ units }));
    expect(pairedBootstrap({ units: [] })).toBeNull();
  });
});
