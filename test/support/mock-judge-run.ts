import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { MetricValue } from '../../src/spec/metric-value.js';
import { type RunSummary, runSummarySchema } from '../../src/spec/run-record.js';
import { loadSuites } from '../../src/suites/registry.js';
import { undefinedMetricIds } from '../../src/suites/undefined-metric-ids.js';
import { runCliInProcess } from './run-cli-in-process.js';
import { lastLine } from './run-cli-process.js';

const suites = await loadSuites();
const findSuite = (id: string) => suites.find((suite) => suite.id === id)!;

/** The three offline judges, each answering every judge with the reply it declares for a verdict. */
export const MOCK_JUDGES = ['mock:judge-leak', 'mock:judge-safe', 'mock:judge-alternate'] as const;
/** One of {@link MOCK_JUDGES}. */
export type MockJudge = (typeof MOCK_JUDGES)[number];

/**
 * Runs `confidant run <args…>` in this process with no cache and one sample at a time (so
 * `mock:judge-alternate` answers in a fixed order), checks it succeeded with no errored sample
 * and that every metric it reports is defined by the suite, and returns the stored summary.
 */
export async function runWithMockJudge({
  suite,
  args,
  cwd,
}: {
  suite: string;
  args: string[];
  cwd: string;
}): Promise<{ summary: RunSummary; runDir: string }> {
  const result = await runCliInProcess({
    args: ['run', suite, ...args, '--concurrency', '1', '--no-cache', '--out', join(cwd, 'runs')],
    env: { CONFIDANT_CACHE_DIR: join(cwd, 'cache') },
    cwd,
  });
  expect(result.code, result.stderr).toBe(0);
  const runDir = lastLine(result.stdout);
  const summary = runSummarySchema.parse(JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')));
  expect(summary.counts.error, result.stderr).toBe(0);
  expect(undefinedMetricIds({ suite: findSuite(suite), summary })).toEqual([]);
  return { summary, runDir };
}

/** A metric's value with its denominators, rounded to 4 decimals so expected values can be written out. */
export function rounded(value: MetricValue | undefined): Omit<MetricValue, 'stderr' | 'ci95'> | undefined {
  if (value === undefined) return undefined;
  return {
    value: value.value === null ? null : Number(value.value.toFixed(4)),
    n: value.n,
    errors: value.errors,
    notApplicable: value.notApplicable,
  };
}

/** `{ id: [value, n, errors, notApplicable] }` → the metrics as stored, for `toEqual`. */
export function expected(
  metrics: Record<string, readonly [number | null, number, number, number]>,
): Record<string, Omit<MetricValue, 'stderr' | 'ci95'>> {
  return Object.fromEntries(
    Object.entries(metrics).map(([id, [value, n, errors, notApplicable]]) => [id, { value, n, errors, notApplicable }]),
  );
}

/** The summary's metrics named in `ids`, rounded like {@link rounded}. */
export function pick(summary: RunSummary, ids: readonly string[]): Record<string, ReturnType<typeof rounded>> {
  return Object.fromEntries(ids.map((id) => [id, rounded(summary.metrics[id])]));
}
