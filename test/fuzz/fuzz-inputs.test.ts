import { describe, expect, it } from 'vitest';
import { DEFAULT_FUZZ_SEED, fuzzSeedFromEnv } from './fuzz-inputs.js';

describe('fuzzSeedFromEnv', () => {
  it('uses the fixed default seed when CONFIDANT_FUZZ_SEED is unset or blank', () => {
    expect(fuzzSeedFromEnv({ value: undefined, soak: false })).toEqual({ seed: DEFAULT_FUZZ_SEED, fresh: false });
    expect(fuzzSeedFromEnv({ value: ' ', soak: false })).toEqual({ seed: 20_261_203, fresh: false });
  });

  it('replays an integer seed, under the soak too', () => {
    expect(fuzzSeedFromEnv({ value: '42', soak: false })).toEqual({ seed: 42, fresh: false });
    expect(fuzzSeedFromEnv({ value: '-7', soak: true })).toEqual({ seed: -7, fresh: false });
  });

  it('draws a fresh integer seed for "random" and for the soak without a seed', () => {
    for (const choice of [
      fuzzSeedFromEnv({ value: 'random', soak: false }),
      fuzzSeedFromEnv({ value: undefined, soak: true }),
    ]) {
      expect(choice.fresh).toBe(true);
      expect(Number.isSafeInteger(choice.seed)).toBe(true);
    }
  });

  it('refuses a value that is neither an integer nor "random", naming it', () => {
    for (const value of ['1.5', 'abc', '12x', '99999999999999999999']) {
      expect(() => fuzzSeedFromEnv({ value, soak: false })).toThrow(`got "${value}"`);
    }
  });
});
