import { describe, expect, it } from 'vitest';
import { newcombePairedInterval } from './newcombe-paired-interval.js';
import { wilsonInterval } from './wilson-interval.js';

describe('newcombePairedInterval', () => {
  it('gives the published interval of a paired table (complete response before and after consolidation, 161 patients)', () => {
    // 59 responded before and after, 6 only before, 16 only after, 80 neither: −0.0621 (−0.1186 to −0.0046).
    const interval = newcombePairedInterval({ table: { both: 59, firstOnly: 6, secondOnly: 16, neither: 80 } });
    expect(interval?.lower).toBeCloseTo(-0.1186, 4);
    expect(interval?.upper).toBeCloseTo(-0.0046, 4);
  });

  it('has width when every pair agrees: ±(Wilson upper bound of 0 of n) when no unit has the outcome', () => {
    const upper = wilsonInterval({ successes: 0, n: 10 })?.upper ?? Number.NaN;
    const interval = newcombePairedInterval({ table: { both: 0, firstOnly: 0, secondOnly: 0, neither: 10 } });
    expect(interval?.lower).toBeCloseTo(-upper, 12);
    expect(interval?.upper).toBeCloseTo(upper, 12);
    expect(upper).toBeCloseTo(0.27753, 5);
  });

  it('narrows a concordant table by its correlation: 5 pairs with the outcome twice, 5 with it never', () => {
    // p1 = p2 = 0.5, Wilson half-width 0.263407, phi = (25 − 5) / 25 = 0.8, half-width 0.263407·√0.4.
    const interval = newcombePairedInterval({ table: { both: 5, firstOnly: 0, secondOnly: 0, neither: 5 } });
    expect(interval?.upper).toBeCloseTo(0.166593, 5);
    expect(interval?.lower).toBeCloseTo(-0.166593, 5);
  });

  it('stays inside [−1, 1] when every pair is discordant one way', () => {
    const interval = newcombePairedInterval({ table: { both: 0, firstOnly: 10, secondOnly: 0, neither: 0 } });
    expect(interval?.upper).toBe(1);
    expect(interval?.lower).toBeCloseTo(0.60751, 5);
  });

  it('widens when the table stands for fewer independent units (clusters)', () => {
    const table = { both: 0, firstOnly: 0, secondOnly: 0, neither: 20 };
    const units = newcombePairedInterval({ table });
    const clusters = newcombePairedInterval({ table, n: 5 });
    expect(clusters?.upper).toBeCloseTo(wilsonInterval({ successes: 0, n: 5 })?.upper ?? Number.NaN, 12);
    expect(clusters?.upper ?? 0).toBeGreaterThan(units?.upper ?? 1);
  });

  it('is null for an empty table', () => {
    expect(newcombePairedInterval({ table: { both: 0, firstOnly: 0, secondOnly: 0, neither: 0 } })).toBeNull();
  });
});
