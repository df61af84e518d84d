import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // A hang guard, not a speed check: CLI e2e tests spawn several processes and CI has 2 shared cores.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Every CLI a test starts checks each event and record against the run format (test/support
    // passes it on to the CLIs it starts; library calls check by default below the session level).
    env: { CONFIDANT_VALIDATE: '1' },
    // The second reporter ends the run with one line about tests skipped for lack of upstream data.
    reporters: ['default', './test/support/upstream-data-reporter.ts'],
  },
});
