import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type CompareRecord,
  compareRecord,
  compareRuns,
  incomparableReason,
  type RunComparison,
} from '../reports/compare-runs.js';
import type { EmbeddedRunRecords } from '../reports/html/render-html.js';
import { type SampleIndexRow, sampleIndexRow } from '../reports/html/sample-index.js';
import { buildViewModel, type ViewModel } from '../reports/html/view-model.js';
import { createInterner } from '../reports/read-compare-records.js';
import { PlanValidationError, StoreFormatError } from '../spec/errors.js';
import type { SampleRecord } from '../spec/run-record.js';
import { type DirectoryRunStore, LatestRecordLines } from '../store/index.js';
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

/** A static report's full records of one run, read by id as the page is written, and the file to close. */
export type ViewRunRecords = EmbeddedRunRecords & { close(): Promise<void> };

/**
 * Reads runs for the HTML report and the viewer: the report model, every later run compared with
 * the first run of its suite (pairs that cannot be compared are listed with the reason), and, for
 * a static file (`mode: 'static'`), the browser rows of every sample and, in `records`, each run's
 * full records to embed (`writeHtml`), read one at a time by id; the caller closes them. Each run
 * is read in one streaming pass that keeps, per sample, only what is shown: its browser row, its
 * `compareRecord` form when the run is compared, and its record without events only for a suite
 * that draws charts from records.
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
}): Promise<{ model: Omit<ViewModel, 'records'>; runDirs: string[]; records?: ViewRunRecords[] }> {
  const { runs, definitions, headline } = await readReportRuns({ dirs, cwd });
  if (oneSuite !== undefined) {
    refuseMixedSuites({ runs: runs.map((run) => ({ dir: run.dir, suite: run.header.suite.id })), cwd, ...oneSuite });
  }
  const pairs: Array<{ a: number; b: number }> = [];
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
    pairs.push({ a: baselineIndex, b: index });
  });
  const compared = new Set(pairs.flatMap((pair) => [pair.a, pair.b]));
  // A suite no longer registered draws no charts of its own; the rest of the view is unaffected.
  const suites = await Promise.all(
    runs.map((run) =>
      suiteRegistry.some((entry) => entry.id === run.header.suite.id) ? loadSuite(run.header.suite.id) : undefined,
    ),
  );
  const read: Array<{ compare: CompareRecord[]; rows: SampleIndexRow[]; charts: SampleRecord[] }> = [];
  for (const [index, run] of runs.entries()) {
    const wants = {
      compare: compared.has(index),
      rows: mode === 'static',
      charts: suites[index]?.report?.charts !== undefined,
    };
    const latest = new Map<string, { compare?: CompareRecord; row?: SampleIndexRow; chart?: SampleRecord }>();
    if (wants.compare || wants.rows || wants.charts) {
      const intern = createInterner();
      await run.store.scanSamples({ events: false }, (record) =>
        latest.set(record.id, {
          ...(wants.compare ? { compare: compareRecord(record, intern) } : {}),
          ...(wants.rows ? { row: sampleIndexRow(record) } : {}),
          ...(wants.charts ? { chart: record } : {}),
        }),
      );
    }
    const kept = [...latest.values()];
    read.push({
      compare: kept.flatMap((entry) => (entry.compare === undefined ? [] : [entry.compare])),
      rows: kept.flatMap((entry) => (entry.row === undefined ? [] : [entry.row])),
      charts: kept.flatMap((entry) => (entry.chart === undefined ? [] : [entry.chart])),
    });
  }
  const comparisons: RunComparison[] = [];
  for (const pair of pairs) {
    const baseline = runs[pair.a];
    const run = runs[pair.b];
    if (baseline === undefined || run === undefined) continue;
    comparisons.push(
      compareRuns({
        a: { header: baseline.header, summary: baseline.summary, records: read[pair.a]?.compare ?? [] },
        b: { header: run.header, summary: run.summary, records: read[pair.b]?.compare ?? [] },
      }),
    );
  }
  const charts = runs.map(
    (run, index) =>
      suites[index]?.report?.charts?.({
        summary: run.summary,
        records: read[index]?.charts ?? [],
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
    ...(mode === 'static' ? { samples: read.map((entry) => entry.rows) } : {}),
  });
  if (mode !== 'static') return { model, runDirs: runs.map((run) => run.dir) };
  const records: ViewRunRecords[] = [];
  for (const run of runs) records.push(await openRunRecords(run.store));
  return { model, runDirs: runs.map((run) => run.dir), records };
}

/** A run's latest records by id, with their events, for `writeHtml`. */
async function openRunRecords(store: DirectoryRunStore): Promise<ViewRunRecords> {
  const lines = await LatestRecordLines.open(store);
  return {
    ids: [...lines.ids()],
    read: async (id) => {
      const record = await lines.read(id);
      if (record === undefined) throw new StoreFormatError(`record ${id} vanished from ${store.samplesFile}`);
      return record;
    },
    close: () => lines.close(),
  };
}
