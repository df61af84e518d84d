import { expect } from 'vitest';
import type { PageWatch } from './launch-chromium.js';

/**
 * Asserts the page opened no dialog, logged no error or warning, and violated no CSP directive.
 * Apart from `launch-chromium.ts` so the benchmark, which launches Chromium too, needs no vitest.
 */
export function expectClean(watch: PageWatch): void {
  expect(watch.dialogs).toEqual([]);
  expect(watch.errors).toEqual([]);
  expect(watch.violations).toEqual([]);
}
