import { describe, expect, it } from 'vitest';
import { cohenKappa } from './cohen-kappa.js';

const repeat = (a: string, b: string, times: number) => Array.from({ length: times }, () => ({ a, b }));

describe('cohenKappa', () => {
  it('a 2×2 table with known kappa: pₒ = 35/50, pₑ = 0.5·0.6 + 0.5·0.4 = 0.5 → κ = 0.4', () => {
    const pairs = [
      ...repeat('pass', 'pass', 20),
      ...repeat('pass', 'fail', 5),
      ...repeat('fail', 'pass', 10),
      ...repeat('fail', 'fail', 15),
    ];
    const result = cohenKappa(pairs);
    expect(result.n).toBe(50);
    expect(result.percent).toBeCloseTo(0.7, 12);
    expect(result.kappa).toBeCloseTo(0.4, 12);
  });

  it('perfect agreement is κ = 1; all one label on both sides leaves κ undefined', () => {
    expect(cohenKappa([...repeat('pass', 'pass', 3), ...repeat('fail', 'fail', 2)]).kappa).toBe(1);
    expect(cohenKappa(repeat('pass', 'pass', 4))).toEqual({ n: 4, percent: 1, kappa: null });
    expect(cohenKappa([])).toEqual({ n: 0, percent: null, kappa: null });
  });
});
