import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compareRuns, incomparableReason, type RunComparison } from '../reports/compare-runs.js';
import { sampleIndexRow } from '../reports/html/sample-index.js';
import { buildViewModel, type ViewModel } from '../reports/html/view-model.js';
import { PlanValidationError } from '../spec/errors.js';
import type { SampleRecord } from '../spec/run-record.js';
import { loadSuite, suiteRegistry } from '../suites/registry.js';
import { readReportRuns } from './read-report-runs.js';
import { refuseMixedSuites } from './refuse-mixed-suites.js';

/**
 * The run directories named on the command line: each argument is a run directory, or a folder
 * of runs (e.g. `runs/`), whose subfolders with a `header.json` are taken in name order.
 */
export function expandRunDirs({ args, cwd }: { args: readonly string[]; cwd: string }): string[] {
  const dirs: string[] = [];
  for (const arg of args) {
    const dir = resolve(cwd, arg);
    if (statSync(join(dir, 'header.json'), { throwIfNoEntry: false })?.isFile()) {
      dirs.push(dir);
      continue;
    }
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
      throw new PlanValidationError(`${arg} is neither a run directory nor a folder of runs`);
    }
    const runs = readdirSync(dir, { withFileTypes: true })
      .filter(
        (entry) =>
          entry.isDirectory() && statSync(join(dir, entry.name, 'header.json'), { throwIfNoEntry: false })?.isFile(),
      )
      .map((entry) => join(dir, entry.name))
      .sort();
    if (runs.length === 0) throw new PlanValidationError(`${arg} holds no run directories (no */header.json)`);
    dirs.push(...runs);
  }
  return dirs;
}

/**
 * Reads runs for the HTML report and the viewer: the report model, every later run compared with
 * the first run of its suite (pairs that cannot be compared are listed with the reason), and, when
 * `embedSamples`, every sample's full record for a self-contained file.
 */
export async function readViewModel({
  dirs,
  cwd,
  mode,
  oneSuite,
}: {
  dirs: readonly string[];
  cwd: string;
  mode: ViewModel['mode'];
  /** Refuse runs of more than one suite (for `report --format html`), before any sample is read. */
  oneSuite?: { command: string };
}): Promise<{ model: ViewModel; runDirs: string[] }> {
  const { runs, definitions, headline } = await readReportRuns({ dirs, cwd });
  if (oneSuite !== undefined) {
    refuseMixedSuites({ runs: runs.map((run) => ({ dir: run.dir, suite: run.header.suite.id })), cwd, ...oneSuite });
  }
  const records: SampleRecord[][] = [];
  for (const run of runs) records.push(await run.store.readSamples({ events: mode === 'static' }));
  const comparisons: RunComparison[] = [];
  const incomparable: ViewModel['incomparable'] = [];
  // Each run is compared with the first run of its own suite: runs of another suite are not
  // comparable, and comparing them with the first run overall would only list them as such.
  const baselineOfSuite = new Map<string, number>();
  runs.forEach((run, index) => {
    const baselineIndex = baselineOfSuite.get(run.header.suite.id);
    if (baselineIndex === undefined) {
      baselineOfSuite.set(run.header.suite.id, index);
      return;
    }
    const baseline = runs[baselineIndex];
    if (baseline === undefined) return;
    const reason = incomparableReason(baseline.header, run.header);
    if (reason !== null) {
      incomparable.push({ a: baseline.header.runId, b: run.header.runId, reason });
      return;
    }
    comparisons.push(
      compareRuns({
        a: { header: baseline.header, summary: baseline.summary, records: records[baselineIndex] ?? [] },
        b: { header: run.header, summary: run.summary, records: records[index] ?? [] },
      }),
    );
  });
  // A suite no longer registered draws no charts of its own; the rest of the view is unaffected.
  const suites = await Promise.all(
    runs.map((run) =>
      suiteRegistry.some((entry) => entry.id === run.header.suite.id) ? loadSuite(run.header.suite.id) : undefined,
    ),
  );
  const charts = runs.map(
    (run, index) =>
      suites[index]?.report?.charts?.({
        summary: run.summary,
        records: records[index] ?? [],
      }) ?? [],
  );
  const model = buildViewModel({
    charts,
    runs,
    definitions,
    headline,
    comparisons,
    incomparable,
    mode,
    ...(mode === 'static' ? { samples: records.map((list) => list.map(sampleIndexRow)), records } : {}),
  });
  return { model, runDirs: runs.map((run) => run.dir) };
}
