import { describe, expect, it } from 'vitest';
import { exactMcNemar, mcNemarOnPairs } from './mcnemar.js';

// Expected p-values computed by hand: 2 · Σ_{i ≤ min(b,c)} C(b+c, i) / 2^(b+c).
describe('exactMcNemar', () => {
  it.each([
    { b: 1, c: 9, pValue: 0.021484375 }, // 2 · (1 + 10) / 1024
    { b: 0, c: 5, pValue: 0.0625 }, // 2 / 32
    { b: 2, c: 8, pValue: 0.109375 }, // 2 · (1 + 10 + 45) / 1024
    { b: 10, c: 25, pValue: 0.01667384780012071 },
    { b: 3, c: 3, pValue: 1 }, // capped
    { b: 0, c: 0, pValue: 1 }, // nothing discordant
  ])('b=$b c=$c', ({ b, c, pValue }) => {
    expect(exactMcNemar({ b, c }).pValue).toBeCloseTo(pValue, 12);
  });

  it('counts discordant pairs from paired outcomes', () => {
    const pairs = [
      { a: true, b: false },
      { a: true, b: true },
      { a: false, b: false },
      ...Array.from({ length: 5 }, () => ({ a: false, b: true })),
    ];
    expect(mcNemarOnPairs(pairs)).toEqual({ b: 1, c: 5, pValue: expect.closeTo(0.21875, 12) }); // 2 · 7 / 64
  });
});
