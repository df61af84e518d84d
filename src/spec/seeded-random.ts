import { createHash } from 'node:crypto';

/**
 * The one seeded random source of the code base (mulberry32): the same seed gives the same
 * sequence on every machine. Bootstrap intervals, export splits, starter data and test fixtures
 * all draw from it.
 */
export type SeededRandom = {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** True with probability `p`. */
  chance(p: number): boolean;
};

/** Creates a {@link SeededRandom} from a 32-bit integer seed. */
export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick<T>(items: readonly T[]): T {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new RangeError('pick() needs a non-empty array');
      return item;
    },
    chance: (p) => next() < p,
  };
}

/**
 * A stable rank for seeded draws: the first 52 bits of SHA-256 of `parts` joined by `|`, as a
 * number. Sorting candidates by their rank is a seeded shuffle whose order for one candidate does
 * not depend on which other candidates exist, so adding a member does not reshuffle every draw.
 */
export function seededRank(parts: ReadonlyArray<string | number>): number {
  return Number.parseInt(createHash('sha256').update(parts.join('|'), 'utf8').digest('hex').slice(0, 13), 16);
}
