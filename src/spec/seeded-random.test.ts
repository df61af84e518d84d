import { describe, expect, it } from 'vitest';
import { seededRandom, seededRank } from './seeded-random.js';

describe('seededRandom', () => {
  it('repeats its sequence for a seed and differs across seeds', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const first = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(first);
    expect(Array.from({ length: 5 }, () => seededRandom(43).next())).not.toEqual(first);
    for (const value of first) expect(value >= 0 && value < 1).toBe(true);
  });

  it('keeps int within bounds and reaches both ends', () => {
    const random = seededRandom(1);
    const seen = new Set(Array.from({ length: 500 }, () => random.int(3, 6)));
    expect([...seen].sort()).toEqual([3, 4, 5, 6]);
  });

  it('picks from an array and refuses an empty one', () => {
    const random = seededRandom(9);
    expect(['x', 'y']).toContain(random.pick(['x', 'y']));
    expect(() => random.pick([])).toThrow(RangeError);
  });
});

describe('seededRank', () => {
  it('is a pure function of its parts', () => {
    expect(seededRank([1, 'a'])).toBe(seededRank([1, 'a']));
    expect(seededRank([1, 'a'])).not.toBe(seededRank([2, 'a']));
    expect(Number.isSafeInteger(seededRank(['x']))).toBe(true);
  });
});
