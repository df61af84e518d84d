import { CHAIN_ROLE_IDS } from '../../orchestration/chain-roles.js';
import { causeLabel, causeSource } from '../../spec/error-cause.js';
import type { MetricDefinition } from '../../spec/metric-definition.js';
import type { RunHeader, RunSummary, SampleRecord } from '../../spec/run-record.js';
import type { SuiteChart } from '../../suites/suite.js';
import { buildReport, type Report } from '../build-report.js';
import type { RunComparison } from '../compare-runs.js';
import { METRICS_DOC_PATH } from '../metric-anchor.js';
import type { SampleIndexRow } from './sample-index.js';

/** What the header says about a run beyond the report: where its data came from. */
export type ViewRunInfo = {
  runId: string;
  suite: string;
  createdAt: string;
  dataset: { name: string; hash: string; files: number };
  judges: RunHeader['judges'];
  planHash: string;
  stopReason?: string;
  groups?: RunSummary['groups'];
  /** The source run and what changed, for a run made by `rescore`. */
  rescoredFrom?: RunHeader['rescoredFrom'];
  /** The suite's own charts of this run (`SuiteReport.charts`). */
  charts?: SuiteChart[];
  /** The report's errors by cause, worded as Markdown and CSV word them (`causeSource`, `causeLabel`). */
  errorCauses: ViewErrorCause[];
};

/** One row of a run's errors by cause, ready to show. */
export type ViewErrorCause = {
  /** `sample`, `judge <id>` or `scorer <id>`. */
  where: string;
  name: string;
  label: string;
  count: number;
  exampleSampleId: string;
};

/**
 * Everything the HTML app shows. `samples` (index rows) and `records` (full records by id) are
 * embedded for a static report; the viewer leaves them out and the app fetches them.
 */
export type ViewModel = {
  title: string;
  mode: 'static' | 'server';
  metricsDoc: string;
  /** The model roles of defense chain stages (generator, verifier, refiner, …): the sample page shows their calls as stages. */
  stageRoles: string[];
  report: Report;
  runs: ViewRunInfo[];
  comparisons: RunComparison[];
  /** Pairs of runs that could not be compared, and why. */
  incomparable: Array<{ a: string; b: string; reason: string }>;
  samples?: SampleIndexRow[][];
  records?: Array<Record<string, SampleRecord>>;
};

/** Builds the app's data from the runs' headers and summaries (and, for a static file, their records). */
export function buildViewModel({
  runs,
  definitions,
  headline,
  comparisons = [],
  incomparable = [],
  mode,
  samples,
  records,
  charts,
}: {
  runs: ReadonlyArray<{ header: RunHeader; summary: RunSummary; extraMarkdown?: string }>;
  definitions: readonly MetricDefinition[];
  headline: string[];
  comparisons?: RunComparison[];
  incomparable?: ViewModel['incomparable'];
  mode: ViewModel['mode'];
  samples?: SampleIndexRow[][];
  records?: SampleRecord[][];
  /** Per run (in order), the suite's charts. */
  charts?: SuiteChart[][];
}): ViewModel {
  const report = buildReport({ runs: [...runs], definitions, headline });
  return {
    title: report.title,
    mode,
    metricsDoc: METRICS_DOC_PATH,
    stageRoles: [...CHAIN_ROLE_IDS],
    report,
    runs: runs.map(({ header, summary }, index) => ({
      runId: header.runId,
      suite: header.suite.id,
      createdAt: header.createdAt,
      dataset: { name: header.dataset.name, hash: header.dataset.hash, files: header.dataset.files.length },
      judges: header.judges,
      planHash: header.planHash,
      ...(summary.stopReason === undefined ? {} : { stopReason: summary.stopReason }),
      ...(summary.groups === undefined ? {} : { groups: summary.groups }),
      ...(header.rescoredFrom === undefined ? {} : { rescoredFrom: header.rescoredFrom }),
      ...(charts?.[index] === undefined || charts[index].length === 0 ? {} : { charts: charts[index] }),
      errorCauses: (report.runs[index]?.errorCauses ?? []).map((cause) => ({
        where: causeSource(cause) ?? 'sample',
        name: cause.name,
        label: causeLabel(cause),
        count: cause.count,
        exampleSampleId: cause.exampleSampleId,
      })),
    })),
    comparisons,
    incomparable,
    ...(samples === undefined ? {} : { samples }),
    ...(records === undefined
      ? {}
      : { records: records.map((list) => Object.fromEntries(list.map((record) => [record.id, record]))) }),
  };
}
