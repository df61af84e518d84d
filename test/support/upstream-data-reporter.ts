import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { TEST_DATA_ENV, testDataDir } from './test-data.js';

/** What the reporter counted: tests marked as needing upstream data, and the skipped ones per dataset and reason. */
export type UpstreamDataTally = { total: number; skipped: number; skippedByDataset: Map<string, number> };

/** Counts the tests that carry the `upstreamDataset` mark, and how many of them were skipped. */
export function tallyUpstreamDataTests(testModules: ReadonlyArray<TestModule>): UpstreamDataTally {
  const tally: UpstreamDataTally = { total: 0, skipped: 0, skippedByDataset: new Map() };
  for (const testModule of testModules) {
    for (const testCase of testModule.children.allTests()) {
      const { upstreamDataset: dataset, upstreamMissing: missing } = testCase.meta();
      if (dataset === undefined) continue;
      tally.total += 1;
      if (testCase.result().state !== 'skipped') continue;
      tally.skipped += 1;
      // Tests skipped for another reason (a filter, `.only`) carry no `upstreamMissing`.
      const key = `${dataset}${missing === undefined || missing === 'not found' ? '' : ` (${missing})`}`;
      tally.skippedByDataset.set(key, (tally.skippedByDataset.get(key) ?? 0) + 1);
    }
  }
  return tally;
}

/** The one line the run ends with; empty when no selected test needs upstream data. */
export function upstreamDataLine({ tally, dataDir }: { tally: UpstreamDataTally; dataDir: string }): string {
  if (tally.total === 0) return '';
  if (tally.skipped === 0) return `upstream data: all ${tally.total} data-dependent tests ran against ${dataDir}`;
  const per = [...tally.skippedByDataset].map(([name, count]) => `${name} ${count}`).join(', ');
  return (
    `upstream data: ${tally.skipped} of ${tally.total} data-dependent tests skipped (${per}; looked in ${dataDir}); ` +
    `run them with \`${TEST_DATA_ENV}=<dir holding confaide/, privacylens/, pacbench/> npm test\` (docs/data.md)`
  );
}

/**
 * Ends `npm test` with one line about the tests that need upstream datasets (see
 * `test/support/test-data.ts`): how many were skipped for lack of data, and the command that
 * runs them. Registered in `vitest.config.ts`; `.ci/run` adds it beside its JSON reporter.
 */
export default class UpstreamDataReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const line = upstreamDataLine({ tally: tallyUpstreamDataTests(testModules), dataDir: testDataDir });
    if (line === '') return;
    if (this.vitest) this.vitest.logger.log(line);
    else process.stdout.write(`${line}\n`);
  }
}
