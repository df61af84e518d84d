import type { ErrorCauseCount } from '../spec/error-cause.js';
import { indexMetricDefinitions, type MetricDefinition, type MetricScale } from '../spec/metric-definition.js';
import type { MetricValue } from '../spec/metric-value.js';
import type { FailureCounts, JudgeHealth, RoleUsage, RunHeader, RunSummary } from '../spec/run-record.js';
import { metricAnchor } from './metric-anchor.js';

/** One run's column in a report. */
export type ReportRun = {
  runId: string;
  suite: string;
  models: Record<string, string[]>;
  defenses: string[];
  options: Record<string, unknown>;
  epochs: number;
  counts: RunSummary['counts'];
  complete: boolean;
  usage: Record<string, RoleUsage>;
  /** The part of `usage` spent on records later superseded (retried errors). */
  supersededUsage?: Record<string, RoleUsage>;
  costUsd: number | null;
  metrics: Record<string, MetricValue>;
  /** Failed samples and judge calls (absent in summaries written before they were counted). */
  failures?: FailureCounts;
  /** Errored samples and failed judge calls by cause, most common first. */
  errorCauses: ErrorCauseCount[];
  /** Verdict counts and common errors per judge and judge model. */
  judges: JudgeHealth[];
  /** Suite-specific Markdown for this run (already rendered from the stored summary). */
  extraMarkdown: string;
};

/** One metric row: its definition and, per run, the value and (when present) the worst case over epochs. */
export type ReportRow = {
  id: string;
  label: string;
  scale: MetricScale;
  /** The registered definition (absent for metrics the suite does not define). */
  definition?: MetricDefinition;
  /** The worst-case companion's definition, when a run reports `<id>_worst`. */
  worstDefinition?: MetricDefinition;
  /** Where `docs/metrics.md` defines it (`<suite>-<id>`), when it has a definition. */
  anchor?: string;
  /** Where `docs/metrics.md` defines the worst-case companion. */
  worstAnchor?: string;
  cells: Array<{ value: MetricValue | null; worst: MetricValue | null }>;
};

/** A pure, renderer-neutral report over one or more runs of the same suite. */
export type Report = {
  title: string;
  runs: ReportRun[];
  rows: ReportRow[];
  /** The suite's headline metrics (its paper table), present in at least one run. */
  headline: string[];
};

const WORST_SUFFIX = '_worst';

/**
 * Builds the report model from stored headers and summaries. Metrics named `<id>_worst` are
 * folded into their base metric's row as the worst-case column, the way papers print them.
 * Metric order follows `definitions` first, then the order in which runs report them; a metric
 * without a definition is shown under its id on the raw scale.
 */
export function buildReport({
  runs,
  definitions = [],
  headline = [],
}: {
  runs: Array<{ header: RunHeader; summary: RunSummary; extraMarkdown?: string }>;
  /** The suites' metric definitions (labels, scales and what each metric means). */
  definitions?: readonly MetricDefinition[];
  headline?: string[];
}): Report {
  const display = indexMetricDefinitions(definitions);
  const reportRuns: ReportRun[] = runs.map(({ header, summary, extraMarkdown = '' }) => ({
    runId: header.runId,
    suite: header.suite.id,
    models: Object.fromEntries(
      Object.entries(header.models).map(([role, models]) => [
        role,
        models.map((model) => `${model.provider}:${model.modelId}`),
      ]),
    ),
    defenses: header.defenses,
    options: header.plan.suiteOptions,
    epochs: header.plan.epochs,
    counts: summary.counts,
    complete: summary.complete,
    usage: summary.usage,
    ...(summary.supersededUsage === undefined ? {} : { supersededUsage: summary.supersededUsage }),
    costUsd: summary.costUsd,
    metrics: summary.metrics,
    ...(summary.failures === undefined ? {} : { failures: summary.failures }),
    errorCauses: summary.errorCauses ?? [],
    judges: summary.judges ?? [],
    extraMarkdown,
  }));
  const ids: string[] = [];
  const add = (id: string) => {
    if (!id.endsWith(WORST_SUFFIX) && !ids.includes(id)) ids.push(id);
  };
  for (const id of Object.keys(display)) {
    if (reportRuns.some((run) => run.metrics[id] !== undefined)) add(id);
  }
  for (const run of reportRuns) for (const id of Object.keys(run.metrics)) add(id);
  for (const run of reportRuns) {
    for (const id of Object.keys(run.metrics)) {
      if (id.endsWith(WORST_SUFFIX) && !ids.includes(id.slice(0, -WORST_SUFFIX.length))) ids.push(id);
    }
  }
  const rows = ids.map((id): ReportRow => {
    const definition = display[id];
    const cells = reportRuns.map((run) => ({
      value: run.metrics[id] ?? null,
      worst: run.metrics[`${id}${WORST_SUFFIX}`] ?? null,
    }));
    const worstDefinition = cells.some((cell) => cell.worst !== null) ? display[`${id}${WORST_SUFFIX}`] : undefined;
    const suite = reportRuns.find((run) => run.metrics[id] !== undefined)?.suite;
    return {
      id,
      label: definition?.label ?? id,
      scale: definition?.scale ?? 'raw',
      ...(definition === undefined ? {} : { definition }),
      ...(worstDefinition === undefined ? {} : { worstDefinition }),
      ...(definition === undefined || suite === undefined ? {} : { anchor: metricAnchor({ suite, id }) }),
      ...(worstDefinition === undefined || suite === undefined
        ? {}
        : { worstAnchor: metricAnchor({ suite, id: worstDefinition.id }) }),
      cells,
    };
  });
  const suites = [...new Set(reportRuns.map((run) => run.suite))];
  return {
    title: `confidant report: ${suites.join(', ')}`,
    runs: reportRuns,
    rows,
    headline: headline.filter((id) => ids.includes(id)),
  };
}

/** Formats a metric value for people: percent ×100 with one decimal, counts as integers, raw with three decimals. */
export function formatMetric(value: MetricValue | null, scale: ReportRow['scale']): string {
  if (value === null) return '—';
  if (value.value === null) return 'n/a';
  if (scale === 'percent') return (value.value * 100).toFixed(1);
  if (scale === 'count') return String(Math.round(value.value));
  return value.value.toFixed(3);
}

/** Formats a metric's 95% interval on its display scale (`9.5–90.5`), or '' when it has none. */
export function formatInterval(value: MetricValue | null, scale: ReportRow['scale']): string {
  const ci = value?.ci95;
  if (value === null || value.value === null || ci === undefined || scale === 'count') return '';
  const show = (x: number) => (scale === 'percent' ? (x * 100).toFixed(1) : x.toFixed(3));
  return `${show(ci[0])}–${show(ci[1])}`;
}

/** A short label for a run column: its models under test and defenses. */
export function runLabel(run: ReportRun): string {
  const under = run.models.agent?.join('+') ?? Object.values(run.models)[0]?.join('+') ?? 'no model';
  const defenses = run.defenses.filter((id) => id !== 'vanilla');
  return defenses.length > 0 ? `${under} [${defenses.join(', ')}]` : under;
}
