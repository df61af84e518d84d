import { relative } from 'node:path';
import { PlanValidationError } from '../spec/errors.js';

/**
 * Refuses (a user error, exit 2) a report over runs of more than one suite. A report is one suite's
 * paper-style table with that suite's metric definitions and headline: runs of two suites in one
 * table would put unrelated numbers side by side, and two suites that share a metric id would fill
 * one row with values that mean different things. The message names each suite with its first run.
 */
export function refuseMixedSuites({
  runs,
  cwd,
  command,
}: {
  runs: ReadonlyArray<{ dir: string; suite: string }>;
  cwd: string;
  /** The command as the user typed it, for the message (`report`, `report --format html`). */
  command: string;
}): void {
  const first = new Map<string, string>();
  for (const run of runs) if (!first.has(run.suite)) first.set(run.suite, relative(cwd, run.dir) || '.');
  if (first.size <= 1) return;
  const listed = [...first].map(([suite, dir]) => `${suite} (${dir})`).join(', ');
  throw new PlanValidationError(
    `${command} shows runs of one suite side by side, and these runs are of ${first.size} suites: ${listed}; run confidant ${command} once per suite`,
  );
}
