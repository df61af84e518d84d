import { describe, expect, it } from 'vitest';
import { wilsonInterval } from './wilson-interval.js';

// Expected bounds computed independently from the closed form
// (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n), z = 1.959963984540054.
describe('wilsonInterval', () => {
  it.each([
    { successes: 5, n: 10, lower: 0.236593090512564, upper: 0.7634069094874361 },
    { successes: 1, n: 3, lower: 0.06149194472039615, upper: 0.7923403991979523 },
    { successes: 45, n: 100, lower: 0.3561453797951198, upper: 0.5475539700255787 },
    { successes: 269, n: 270, lower: 0.9793225585315078, upper: 0.9993459058936728 },
  ])('$successes of $n', ({ successes, n, lower, upper }) => {
    const interval = wilsonInterval({ successes, n });
    expect(interval?.lower).toBeCloseTo(lower, 12);
    expect(interval?.upper).toBeCloseTo(upper, 12);
  });

  it('is exactly 0 below none and exactly 1 above all', () => {
    expect(wilsonInterval({ successes: 0, n: 10 })).toEqual({
      lower: 0,
      upper: expect.closeTo(0.2775327998628892, 12),
    });
    expect(wilsonInterval({ successes: 10, n: 10 })).toEqual({
      lower: expect.closeTo(0.7224672001371107, 12),
      upper: 1,
    });
  });

  it('has no interval over an empty denominator', () => {
    expect(wilsonInterval({ successes: 0, n: 0 })).toBeNull();
  });
});
