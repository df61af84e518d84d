import { describe, expect, it } from 'vitest';
import { attemptOrdinal } from './generation-context.js';

describe('attemptOrdinal', () => {
  it('leaves ten ordinals per attempt for parse retries, after an offset', () => {
    expect(attemptOrdinal(1)).toBe(0);
    expect(attemptOrdinal(3)).toBe(20);
    expect(attemptOrdinal(2, 1000)).toBe(1010);
  });
});
