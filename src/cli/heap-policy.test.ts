import { describe, expect, it } from 'vitest';
import { applyHeapPolicy, heapPolicyApplied, heapPolicyExpected } from './heap-policy.js';

describe('applyHeapPolicy', () => {
  it('leaves a growth policy given to node alone', () => {
    expect(applyHeapPolicy({ execArgv: ['--heap-growing-percent=0'] })).toBe(false);
    expect(applyHeapPolicy({ execArgv: ['--heap_growing_percent=80'] })).toBe(false);
    expect(heapPolicyApplied()).toBe(false);
  });

  it('sets it otherwise', () => {
    expect(applyHeapPolicy({ execArgv: ['--enable-source-maps', '--max-old-space-size=96'] })).toBe(true);
    expect(heapPolicyApplied()).toBe(true);
  });
});

describe('heapPolicyExpected', () => {
  const expected = (words: string[], execArgv: string[] = []) =>
    heapPolicyExpected({ argv: ['node', 'confidant', ...words], execArgv });

  it('foresees the commands that apply the policy', () => {
    expect(expected(['run', 'confaide'])).toBe(true);
    expect(expected(['resume', 'runs/x'])).toBe(true);
    expect(expected(['rescore', 'runs/x'])).toBe(true);
    expect(expected(['merge', 'a', 'b'])).toBe(true);
    expect(expected(['report', 'runs/x', '--per-sample'])).toBe(true);
    expect(expected(['report', 'runs/x', '--format', 'html'])).toBe(true);
    expect(expected(['report', 'runs/x', '--format=html'])).toBe(true);
    expect(expected(['compare', 'runs/a', 'runs/b'])).toBe(true);
    expect(expected(['view', 'runs'])).toBe(true);
  });

  it('and no other', () => {
    expect(expected(['report', 'runs/x'])).toBe(false);
    expect(expected(['report', 'runs/x', '--format', 'md'])).toBe(false);
    expect(expected(['--help'])).toBe(false);
    expect(expected([])).toBe(false);
    expect(expected(['list'])).toBe(false);
    expect(expected(['run', 'confaide'], ['--heap-growing-percent=0'])).toBe(false);
  });
});
