import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The second reporter ends the run with one line about tests skipped for lack of upstream data.
    reporters: ['default', './test/support/upstream-data-reporter.ts'],
  },
});
