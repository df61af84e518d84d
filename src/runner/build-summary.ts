import { withIntervals } from '../metrics/metric-intervals.js';
import { nullReason, withReason } from '../metrics/null-reason.js';
import { causeLabel } from '../spec/error-cause.js';
import type { MetricValue } from '../spec/metric-value.js';
import { FORMAT_VERSION, type RoleUsage, type RunSummary, type SampleRecord } from '../spec/run-record.js';
import type { RunStore } from '../spec/run-store.js';
import type { Suite, SuiteMetrics } from '../suites/suite.js';
import { sumUsageByRole, totalCost } from './aggregate-usage.js';
import { FailureTally } from './failure-tally.js';
import { summarizeJudges } from './judge-health.js';
import { createValueSharer, type ValueSharer } from './share-equal-values.js';

/**
 * Computes `summary.json` from the records of a run; used by run, resume, merge and report.
 *
 * `records` may be the run's whole history (`readSamples({ history: true })`): only records whose
 * id is in `planned` count, the last one per id is the sample's result, and earlier ones are
 * superseded. `counts.missing` is the planned samples without a record, and `complete` is
 * `missing === 0`. Metrics and groups come from `suite.metrics` over the latest records (errored
 * ones included, so metrics can report them in `errors`), each rate and mean with its 95% interval
 * (Wilson for proportions of independent units, else a bootstrap over scenarios, and Wilson over
 * scenarios for a rate whose bootstrap collapses to one point: `withIntervals`);
 * a metric left without a value gets a
 * `reason` (the suite's, else one from its counts and the run's most common failure), and none
 * keeps a value over an empty denominator. Usage counts every call made, superseded records
 * included (that part is also given as `supersededUsage`); the total `costUsd` is `null` if any
 * role's cost is unknown. `errorsByName` counts errored records by error name; `failures`,
 * `errorCauses` and `judges` say what failed and how the judges fared.
 */
export function buildSummary({
  records,
  ...input
}: SummaryInput & {
  records: SampleRecord[];
}): RunSummary {
  const builder = createSummaryBuilder({ suite: input.suite, planned: input.planned });
  for (const record of records) builder.add(record);
  return builder.build(input);
}

/** What a summary is built for, besides the records: see `buildSummary`. */
export type SummaryInput = {
  runId: string;
  suite: Suite;
  options: unknown;
  planned: string[];
  now?: Date;
  stopReason?: string;
};

/**
 * `buildSummary` over a store's records, read in one streaming pass (`scanSamples`): only what the
 * summary needs of each sample's latest record is kept (no events, no `input`, and the suite's
 * `retain` view of the rest), so memory follows the size of scores, not of transcripts.
 */
export async function summarizeStore({ store, ...input }: SummaryInput & { store: RunStore }): Promise<RunSummary> {
  const builder = createSummaryBuilder({ suite: input.suite, planned: input.planned });
  await store.scanSamples({ events: false }, (record) => builder.add(record));
  return builder.build(input);
}

/** Takes records one at a time in append order (`add`), then computes the summary (`build`). */
export type SummaryBuilder = {
  add(record: SampleRecord): void;
  build(input: SummaryInput): RunSummary;
};

/**
 * The streaming core of `buildSummary`: per planned id it keeps the latest record's summary view
 * (no events, no `input`, then `suite.metrics.retain`, with values that repeat across samples
 * shared: `compactView`); a superseded record leaves only its usage, added to a running total in
 * append order.
 */
export function createSummaryBuilder({
  suite,
  planned,
}: {
  suite: Suite;
  /** The planned ids; a set is used as it is (not copied), so a caller that has one shares it. */
  planned: readonly string[] | ReadonlySet<string>;
}): SummaryBuilder {
  const plannedIds: ReadonlySet<string> = planned instanceof Set ? planned : new Set(planned);
  const latest = new Map<string, SampleRecord>();
  let supersededUsage: Record<string, RoleUsage> = {};
  let superseded = 0;
  const retain = suite.metrics.retain;
  const share = createValueSharer();
  return {
    add(record) {
      if (!plannedIds.has(record.id)) return;
      const previous = latest.get(record.id);
      if (previous) {
        supersededUsage = sumUsageByRole([supersededUsage, previous.usage]);
        superseded += 1;
      }
      const view = summaryView(record);
      latest.set(record.id, compactView({ view: retain === undefined ? view : retain(view), share }));
    },
    build(input) {
      return summaryOf({ ...input, plannedIds, latest, supersededUsage, superseded });
    },
  };
}

/** The record without `input` and with no events (one copy, the fields in their order). */
function summaryView(record: SampleRecord): SampleRecord {
  const view: Record<string, unknown> = {};
  for (const field in record) {
    if (field !== 'input') view[field] = field === 'events' ? [] : record[field as keyof SampleRecord];
  }
  if (view.events === undefined) view.events = [];
  return view as SampleRecord;
}

/** Fields that differ from sample to sample: sharing them would only fill the table. */
const OWN_FIELDS = new Set(['id', 'startedAt', 'finishedAt', 'seed', 'epoch', 'attempt']);

/**
 * A summary view with every field that tends to repeat across samples (variant, output, scores,
 * usage, status, judgments…) replaced by a shared, frozen instance of an equal value: the metrics
 * read the same values, and 20,000 views cost a fraction of 20,000 parsed copies.
 */
function compactView({ view, share }: { view: SampleRecord; share: ValueSharer }): SampleRecord {
  const compact: Record<string, unknown> = {};
  for (const field in view) {
    const value = view[field as keyof SampleRecord];
    compact[field] = OWN_FIELDS.has(field) ? value : share(value);
  }
  return compact as SampleRecord;
}

function summaryOf({
  runId,
  suite,
  options,
  plannedIds,
  latest,
  supersededUsage,
  superseded,
  now = new Date(),
  stopReason,
}: SummaryInput & {
  plannedIds: ReadonlySet<string>;
  latest: Map<string, SampleRecord>;
  supersededUsage: Record<string, RoleUsage>;
  superseded: number;
}): RunSummary {
  const kept = [...latest.values()];

  const errorsByName: Record<string, number> = {};
  const tally = new FailureTally();
  for (const record of kept) {
    tally.set(record);
    if (record.status !== 'error') continue;
    const name = record.error?.name ?? 'Error';
    errorsByName[name] = (errorsByName[name] ?? 0) + 1;
  }
  const { causes, ...failures } = tally.snapshot();
  const errors = kept.filter((record) => record.status === 'error').length;
  const missing = plannedIds.size - kept.length;
  const topCause = causes[0];
  const rates = new Set(
    suite.metrics.definitions.filter((definition) => definition.scale !== 'count').map((definition) => definition.id),
  );
  const proportions = new Set(
    suite.metrics.definitions
      .filter((definition) => definition.scale === 'percent' || definition.scale === 'fraction')
      .map((definition) => definition.id),
  );
  const { metrics, groups } = explainNullMetrics({
    computed: withIntervals({
      computed: suite.metrics.compute({ records: kept, options }),
      records: kept,
      compute: (resampled) => suite.metrics.compute({ records: resampled, options, breakdowns: false }).metrics,
      statistics: suite.metrics.scenarioStatistics?.(options),
      eligible: (id) => rates.has(id),
      proportion: (id) => proportions.has(id),
    }),
    ...(topCause === undefined ? {} : { commonError: causeLabel(topCause) }),
  });
  const usage = sumUsageByRole([...kept.map((record) => record.usage), supersededUsage]);

  return {
    formatVersion: FORMAT_VERSION,
    runId,
    finishedAt: now.toISOString(),
    complete: missing === 0,
    ...(stopReason === undefined ? {} : { stopReason }),
    counts: { planned: plannedIds.size, success: kept.length - errors, error: errors, missing },
    metrics,
    ...(groups === undefined ? {} : { groups }),
    usage,
    ...(superseded === 0 ? {} : { supersededUsage }),
    costUsd: totalCost(usage),
    errorsByName,
    failures,
    errorCauses: causes,
    judges: summarizeJudges(kept),
  };
}

/**
 * Every metric (and group metric) without a value gets a reason: the suite's own, else a sentence
 * from its counts, naming the run's most common failure when the metric counted errors.
 */
function explainNullMetrics({ computed, commonError }: { computed: SuiteMetrics; commonError?: string }): SuiteMetrics {
  const explain = (metric: MetricValue): MetricValue =>
    metric.value !== null && (metric.n > 0 || metric.convention !== undefined)
      ? metric
      : withReason(
          metric,
          () =>
            metric.reason ??
            nullReason({
              errors: metric.errors,
              notApplicable: metric.notApplicable,
              ...(metric.errors > 0 && commonError !== undefined ? { error: commonError } : {}),
            }),
        );
  const mapValues = <T, U>(record: Record<string, T>, map: (value: T) => U): Record<string, U> =>
    Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
  return {
    metrics: mapValues(computed.metrics, explain),
    ...(computed.groups === undefined
      ? {}
      : { groups: mapValues(computed.groups, (group) => mapValues(group, (values) => mapValues(values, explain))) }),
  };
}
