import { resolve } from 'node:path';
import { parseSuiteOptions, planSuiteOptions, summarizeStore } from '../runner/index.js';
import type { MetricDefinition } from '../spec/metric-definition.js';
import type { RunHeader, RunSummary } from '../spec/run-record.js';
import { DirectoryRunStore, refuseHalfWrittenMerge } from '../store/index.js';
import { loadSuite } from '../suites/registry.js';
import type { Suite } from '../suites/suite.js';

/** One run directory as reports read it. */
export type ReportRunInput = {
  dir: string;
  store: DirectoryRunStore;
  header: RunHeader;
  summary: RunSummary;
  suite: Suite;
  extraMarkdown: string;
};

/** The runs of a report with the metric definitions and headline of their suites. */
export type ReportRunsInput = {
  runs: ReportRunInput[];
  definitions: MetricDefinition[];
  headline: string[];
};

/**
 * Reads run directories for `report`, `compare` and `view`: header, summary (computed from the
 * records when a killed run never wrote one) and suite. Definitions are merged (the first run's
 * suite wins for an id two suites share) and the first suite with a headline gives it.
 */
export async function readReportRuns({
  dirs,
  cwd,
}: {
  dirs: readonly string[];
  cwd: string;
}): Promise<ReportRunsInput> {
  const runs: ReportRunInput[] = [];
  const definitions: MetricDefinition[] = [];
  let headline: string[] = [];
  for (const dir of dirs) {
    refuseHalfWrittenMerge(resolve(cwd, dir));
    const store = new DirectoryRunStore(resolve(cwd, dir));
    const header = await store.readHeader();
    const suite = await loadSuite(header.suite.id);
    const known = new Set(definitions.map((definition) => definition.id));
    definitions.push(...suite.metrics.definitions.filter((definition) => !known.has(definition.id)));
    headline = headline.length > 0 ? headline : (suite.report?.headline ?? []);
    // A run killed before its summary was written still has its records: summarise them now.
    const summary =
      (await store.readSummary()) ??
      (await summarizeStore({
        store,
        runId: header.runId,
        suite,
        options: parseSuiteOptions({ suite, raw: planSuiteOptions({ suite, plan: header.plan }) }),
        planned: header.sampleIds,
      }));
    runs.push({
      dir: resolve(cwd, dir),
      store,
      header,
      summary,
      suite,
      extraMarkdown: suite.report?.markdown?.(summary) ?? '',
    });
  }
  return { runs, definitions, headline };
}

/**
 * Reads run directories for readers that need only each run's header and records (`report
 * --per-sample`): no summary is read or computed, and no suite is loaded, so a killed run with no
 * `summary.json` costs no summary pass. A half-written merge is refused as `readReportRuns` does.
 */
export async function readReportHeaders({
  dirs,
  cwd,
}: {
  dirs: readonly string[];
  cwd: string;
}): Promise<Array<Pick<ReportRunInput, 'dir' | 'store' | 'header'>>> {
  const runs: Array<Pick<ReportRunInput, 'dir' | 'store' | 'header'>> = [];
  for (const dir of dirs) {
    refuseHalfWrittenMerge(resolve(cwd, dir));
    const store = new DirectoryRunStore(resolve(cwd, dir));
    runs.push({ dir: resolve(cwd, dir), store, header: await store.readHeader() });
  }
  return runs;
}
