import { describe, expect, it } from 'vitest';
import { applyHeapPolicy } from './heap-policy.js';

describe('applyHeapPolicy', () => {
  it('leaves a growth policy given to node alone', () => {
    expect(applyHeapPolicy({ execArgv: ['--heap-growing-percent=0'] })).toBe(false);
    expect(applyHeapPolicy({ execArgv: ['--heap_growing_percent=80'] })).toBe(false);
  });

  it('sets it otherwise', () => {
    expect(applyHeapPolicy({ execArgv: ['--enable-source-maps', '--max-old-space-size=96'] })).toBe(true);
  });
});
