import type { MetricValue } from '../spec/metric-value.js';
import type { SampleRecord } from '../spec/run-record.js';
import { seededRandom } from '../spec/seeded-random.js';
import { percentile } from './percentile.js';
import { wilsonInterval } from './wilson-interval.js';

/** Metrics as suites compute them: flat values and breakdowns (`groups[by][value][metric]`). */
export type MetricSet = {
  metrics: Record<string, MetricValue>;
  groups?: Record<string, Record<string, Record<string, MetricValue>>>;
};

/** The default number of scenario resamples for a summary's bootstrap intervals. */
export const SUMMARY_RESAMPLES = 200;

const isWhole = (x: number) => Math.abs(x - Math.round(x)) < 1e-6;

/**
 * The metric with a Wilson interval when it is a plain proportion: a value in [0, 1] that is a
 * whole number of its `n` units. Metrics that already carry an interval, or have no value, are
 * returned as they are.
 */
export function withWilsonInterval(metric: MetricValue): MetricValue {
  if (metric.ci95 !== undefined || metric.value === null || metric.n <= 0) return metric;
  if (metric.value < 0 || metric.value > 1 || !isWhole(metric.value * metric.n)) return metric;
  const interval = wilsonInterval({ successes: Math.round(metric.value * metric.n), n: metric.n });
  return interval === null ? metric : { ...metric, ci95: [interval.lower, interval.upper], ciMethod: 'wilson' };
}

/**
 * Flat metrics that depend on the records only through statistics of each scenario (e.g. its
 * pass/fail tallies), so that the summary's bootstrap can recompute a resample from one summary
 * per drawn scenario instead of every record of it. Optional: without it the bootstrap recomputes
 * the suite's metrics over the resampled records.
 *
 * Contract: for any scenarios `s1…sk` (repeats allowed), `values([summarize(s1), …, summarize(sk)])`
 * gives every flat metric the same value, bit for bit, as the suite's metrics over the records of
 * `s1…sk` concatenated in that order with each draw renamed to a distinct scenario (what
 * {@link scenarioBootstrap} computes); a metric it leaves out counts as having no value.
 */
export type ScenarioStatistics<Summary = unknown> = {
  /** One scenario's records, in record order, reduced to what the flat metrics need of them. */
  summarize(records: readonly SampleRecord[]): Summary;
  /** The flat metrics' values over scenarios with these summaries, in order (each a separate scenario). */
  values(summaries: readonly Summary[]): Record<string, number | null>;
};

/** How a bootstrap copy's ids end (`<id>~<k>`). */
const COPY_SUFFIX = /~\d+$/;

/** Occurrences below this keep their copies: a scenario is drawn a third time in ~8% of resamples, a fourth in ~2%. */
const KEPT_OCCURRENCES = 3;

/**
 * At most this many copied records are kept across resamples (about 2 MB of shallow views): a
 * 2,000-sample run keeps all its copies, a larger one builds the rest each time it draws them, so
 * the bootstrap's memory does not grow with the run.
 */
const MAX_KEPT_COPIES = 8192;

/**
 * A bootstrap's renamed copies of each scenario's records, by occurrence within a resample
 * (`<id>~<occurrence>`); occurrences below `first` are the records themselves. Copies of the
 * first few occurrences are kept for later resamples (at most three shallow views per record, and
 * `MAX_KEPT_COPIES` in all), rarer ones are built each time.
 */
class Copies {
  private readonly scenarios: readonly SampleRecord[][];
  private readonly first: number;
  private readonly kept: SampleRecord[][][];
  private keptRecords = 0;

  constructor({ scenarios, first }: { scenarios: readonly SampleRecord[][]; first: number }) {
    this.scenarios = scenarios;
    this.first = first;
    this.kept = scenarios.map(() => []);
  }

  of(index: number, occurrence: number): readonly SampleRecord[] {
    const records = this.scenarios[index] ?? [];
    if (occurrence < this.first) return records;
    const kept = this.kept[index];
    const cached = kept?.[occurrence];
    if (cached !== undefined) return cached;
    const scenarioId = `${records[0]?.scenarioId ?? ''}~${occurrence}`;
    const built = records.map((record) => ({ ...record, id: `${record.id}~${occurrence}`, scenarioId }));
    if (kept !== undefined && occurrence < KEPT_OCCURRENCES && this.keptRecords + built.length <= MAX_KEPT_COPIES) {
      kept[occurrence] = built;
      this.keptRecords += built.length;
    }
    return built;
  }
}

/** The records grouped by scenario, in first-seen order. */
function byScenario(records: readonly SampleRecord[]): SampleRecord[][] {
  const groups = new Map<string, SampleRecord[]>();
  for (const record of records) {
    const list = groups.get(record.scenarioId);
    if (list) list.push(record);
    else groups.set(record.scenarioId, [record]);
  }
  return [...groups.values()];
}

/**
 * Percentile intervals from resampling whole scenarios with replacement and recomputing the metrics:
 * every record of a drawn scenario comes along (a scenario drawn again within one resample comes as
 * copies renamed `<id>~<k>`, `k` counting its earlier draws in that resample, so that each draw
 * counts as a separate scenario; metrics group by `scenarioId` in first-seen order, so only the
 * names' distinctness matters). With `statistics` each resample is computed from the drawn
 * scenarios' summaries instead (the same draws and, by its contract, the same values). Returns the
 * 2.5th and 97.5th percentiles per metric id; ids with a value in fewer than half the resamples get none.
 */
export function scenarioBootstrap({
  records,
  compute,
  statistics,
  ids,
  resamples = SUMMARY_RESAMPLES,
  seed = 13,
}: {
  records: readonly SampleRecord[];
  compute: (records: SampleRecord[]) => Record<string, MetricValue>;
  statistics?: ScenarioStatistics | undefined;
  ids: readonly string[];
  resamples?: number;
  seed?: number;
}): Record<string, [number, number]> {
  const scenarios = byScenario(records);
  if (scenarios.length < 2 || ids.length === 0) return {};
  const random = seededRandom(seed).next;
  const draws: Record<string, number[]> = Object.fromEntries(ids.map((id) => [id, []]));
  const keep = (id: string, value: number | null | undefined) => {
    if (typeof value === 'number' && Number.isFinite(value)) draws[id]?.push(value);
  };
  if (statistics !== undefined) {
    const summaries = scenarios.map((list) => statistics.summarize(list));
    const drawn: unknown[] = new Array(scenarios.length);
    for (let r = 0; r < resamples; r += 1) {
      for (let k = 0; k < scenarios.length; k += 1) drawn[k] = summaries[Math.floor(random() * scenarios.length)];
      const values = statistics.values(drawn);
      for (const id of ids) keep(id, values[id]);
    }
    return percentileIntervals({ ids, draws, resamples });
  }
  // A scenario drawn again within one resample comes as copies named after how often it was
  // drawn before in that resample (`~1`, `~2`, …): the names only need to tell draws apart, and a
  // copy named by occurrence is the same in every resample, so the first few are built once and
  // reused. A scenario's first draw can be the records themselves, which is safe only when no
  // original id could be mistaken for a copy's (`…~<k>`); otherwise every draw is a copy.
  const reuseFirst = !records.some((record) => COPY_SUFFIX.test(record.id) || COPY_SUFFIX.test(record.scenarioId));
  const copies = new Copies({ scenarios, first: reuseFirst ? 1 : 0 });
  const drawnIn = new Int32Array(scenarios.length).fill(-1);
  const times = new Int32Array(scenarios.length);
  for (let r = 0; r < resamples; r += 1) {
    const sample: SampleRecord[] = [];
    for (let k = 0; k < scenarios.length; k += 1) {
      const index = Math.floor(random() * scenarios.length);
      if (drawnIn[index] !== r) {
        drawnIn[index] = r;
        times[index] = 0;
      }
      const occurrence = times[index] ?? 0;
      times[index] = occurrence + 1;
      for (const record of copies.of(index, occurrence)) sample.push(record);
    }
    const computed = compute(sample);
    for (const id of ids) keep(id, computed[id]?.value);
  }
  return percentileIntervals({ ids, draws, resamples });
}

/** The 2.5th and 97.5th percentiles of each id's resampled values, for ids with values in at least half the resamples. */
function percentileIntervals({
  ids,
  draws,
  resamples,
}: {
  ids: readonly string[];
  draws: Record<string, number[]>;
  resamples: number;
}): Record<string, [number, number]> {
  const intervals: Record<string, [number, number]> = {};
  for (const id of ids) {
    const values = (draws[id] ?? []).sort((a, b) => a - b);
    if (values.length < resamples / 2) continue;
    const lower = percentile({ sorted: values, p: 0.025 });
    const upper = percentile({ sorted: values, p: 0.975 });
    if (lower !== null && upper !== null) intervals[id] = [lower, upper];
  }
  return intervals;
}

/**
 * The Wilson interval of a clustered proportion whose scenario bootstrap collapsed to one point:
 * every cluster (scenario) that has units of the metric gave the same value (e.g. every story
 * leaked, or none did), so resampling scenarios can only redraw that value. Counting each such
 * scenario as one unit (the most conservative design effect: units inside a scenario may be fully
 * correlated) gives the interval `k` independent scenarios with that outcome would have, at the
 * observed value (`value · k` successes of `k`; exact Wilson when the value is 0 or 1).
 */
export function clusterWilsonInterval({
  metric,
  clusters,
}: {
  metric: MetricValue;
  /** The number of scenarios with at least one unit of the metric. */
  clusters: number;
}): [number, number] | null {
  if (metric.value === null || metric.value < 0 || metric.value > 1) return null;
  const interval = wilsonInterval({ successes: metric.value * clusters, n: clusters });
  return interval === null ? null : [interval.lower, interval.upper];
}

/** How many scenarios have units of each metric (`n` > 0 when the metric is computed over that scenario alone). */
function clustersOf({
  records,
  compute,
  ids,
}: {
  records: readonly SampleRecord[];
  compute: (records: SampleRecord[]) => Record<string, MetricValue>;
  ids: readonly string[];
}): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(ids.map((id) => [id, 0]));
  for (const list of byScenario(records)) {
    const computed = compute(list);
    for (const id of ids) if ((computed[id]?.n ?? 0) > 0) counts[id] = (counts[id] ?? 0) + 1;
  }
  return counts;
}

/**
 * Adds a 95% interval to every eligible metric (`eligible(id)`, e.g. the suite's rates and means).
 * When each scenario has a single record and a metric is a proportion of at most that many units,
 * the units are independent and it gets the Wilson interval. Otherwise (epochs or variants of one
 * scenario, several units per sample, worst case over epochs, means of means) it gets a scenario
 * bootstrap interval, which keeps the correlation inside a scenario. A proportion (`proportion(id)`)
 * whose bootstrap interval has zero width (every scenario gave the same value, e.g. all leaked) gets
 * the Wilson interval over its scenarios instead (`cluster-wilson`, see `clusterWilsonInterval`): a
 * zero-width interval would read as certainty. Breakdowns (`groups`) get Wilson intervals under the
 * same condition as the flat metrics and none otherwise.
 */
export function withIntervals({
  computed,
  records,
  compute,
  statistics,
  eligible,
  proportion = () => false,
  resamples = SUMMARY_RESAMPLES,
}: {
  computed: MetricSet;
  records: readonly SampleRecord[];
  compute: (records: SampleRecord[]) => Record<string, MetricValue>;
  /** The suite's per-scenario statistics, when it has them: a cheaper bootstrap with the same intervals. */
  statistics?: ScenarioStatistics | undefined;
  eligible: (id: string) => boolean;
  /** Metrics that are proportions on 0–1 (rates), for which a collapsed bootstrap falls back to `cluster-wilson`. */
  proportion?: (id: string) => boolean;
  resamples?: number;
}): MetricSet {
  const scenarios = new Set(records.map((record) => record.scenarioId)).size;
  const independent = scenarios === records.length;
  const wilson = (metric: MetricValue) =>
    independent && metric.n <= records.length ? withWilsonInterval(metric) : metric;
  const metrics: Record<string, MetricValue> = {};
  const pending: string[] = [];
  for (const [id, metric] of Object.entries(computed.metrics)) {
    const next = eligible(id) ? wilson(metric) : metric;
    metrics[id] = next;
    if (eligible(id) && next.ci95 === undefined && next.value !== null && next.n > 0) pending.push(id);
  }
  const boot = scenarioBootstrap({ records, compute, statistics, ids: pending, resamples });
  const collapsed = Object.entries(boot)
    .filter(([id, [lower, upper]]) => upper - lower < 1e-12 && proportion(id))
    .map(([id]) => id);
  const clusters = collapsed.length === 0 ? {} : clustersOf({ records, compute, ids: collapsed });
  for (const [id, interval] of Object.entries(boot)) {
    const metric = metrics[id];
    if (metric === undefined) continue;
    const fallback = collapsed.includes(id) ? clusterWilsonInterval({ metric, clusters: clusters[id] ?? 0 }) : null;
    metrics[id] =
      fallback === null
        ? { ...metric, ci95: interval, ciMethod: 'scenario-bootstrap' }
        : { ...metric, ci95: fallback, ciMethod: 'cluster-wilson' };
  }
  if (computed.groups === undefined) return { metrics };
  const groups = Object.fromEntries(
    Object.entries(computed.groups).map(([by, values]) => [
      by,
      Object.fromEntries(
        Object.entries(values).map(([key, row]) => [
          key,
          Object.fromEntries(Object.entries(row).map(([id, metric]) => [id, eligible(id) ? wilson(metric) : metric])),
        ]),
      ),
    ]),
  );
  return { metrics, groups };
}
