import { describe, expect, it } from 'vitest';
import { createIsoClock } from './iso-clock.js';

describe('createIsoClock', () => {
  it('reads the injected clock as toISOString does, one string per millisecond', () => {
    const times = [0, 0, 1, 1_000, 1_000].map((ms) => new Date(Date.UTC(2025, 0, 1) + ms));
    let index = 0;
    const clock = createIsoClock(() => times[index++]!);
    const read = times.map(() => clock());
    expect(read).toEqual(times.map((time) => time.toISOString()));
    expect(read[1]).toBe(read[0]);
  });

  it('reads the system clock without one', () => {
    const before = Date.now();
    const read = Date.parse(createIsoClock()());
    expect(read).toBeGreaterThanOrEqual(before);
    expect(read).toBeLessThanOrEqual(Date.now());
  });

  it('throws on an invalid date, as toISOString does', () => {
    const clock = createIsoClock(() => new Date(Number.NaN));
    expect(() => clock()).toThrow(RangeError);
    expect(() => clock()).toThrow(RangeError);
  });
});
