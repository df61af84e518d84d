import { describe, expect, it } from 'vitest';
import { applyHeapPolicy } from './heap-policy.js';

describe('applyHeapPolicy', () => {
  it('leaves a growth policy the user gave alone, on the command line or in NODE_OPTIONS', () => {
    expect(applyHeapPolicy({ env: {}, execArgv: ['--heap-growing-percent=20'] })).toBe(false);
    expect(
      applyHeapPolicy({ env: { NODE_OPTIONS: '--max-old-space-size=96 --heap_growing_percent=80' }, execArgv: [] }),
    ).toBe(false);
  });

  it('sets it otherwise', () => {
    expect(
      applyHeapPolicy({ env: { NODE_OPTIONS: '--max-old-space-size=96' }, execArgv: ['--enable-source-maps'] }),
    ).toBe(true);
  });
});
