import { describe, expect, it } from 'vitest';
import type { MetricValue } from '../spec/metric-value.js';
import type { SampleRecord } from '../spec/run-record.js';
import { seededRandom } from '../spec/seeded-random.js';
import { anyPerGroup, meanOfGroupMeans } from './grouped-rate.js';
import { clusterWilsonInterval, scenarioBootstrap, withIntervals, withWilsonInterval } from './metric-intervals.js';
import { percentile } from './percentile.js';

const record = ({
  scenarioId,
  epoch,
  leaked,
}: {
  scenarioId: string;
  epoch: number;
  leaked: boolean;
}): SampleRecord => ({
  id: `${scenarioId}#e${epoch}`,
  scenarioId,
  variant: {},
  epoch,
  seed: 1,
  status: 'ok',
  startedAt: '2025-01-01T00:00:00.000Z',
  finishedAt: '2025-01-01T00:00:01.000Z',
  attempt: 1,
  output: null,
  scores: [{ scorer: 't@1', verdict: leaked ? 'fail' : 'pass', value: leaked ? 1 : 0 }],
  events: [],
  usage: {},
});

/** The share of records that leaked, as a suite would compute it. */
const leakRate = (records: SampleRecord[]): Record<string, MetricValue> => {
  const fails = records.filter((r) => r.scores[0]?.verdict === 'fail').length;
  return {
    leak_rate: {
      value: records.length === 0 ? null : fails / records.length,
      n: records.length,
      errors: 0,
      notApplicable: 0,
    },
  };
};

describe('withWilsonInterval', () => {
  it('adds the Wilson interval to a proportion (5 of 10 → hand-computed bounds)', () => {
    const metric = withWilsonInterval({ value: 0.5, n: 10, errors: 1, notApplicable: 0 });
    expect(metric.ciMethod).toBe('wilson');
    expect(metric.ci95?.[0]).toBeCloseTo(0.236593090512564, 12);
    expect(metric.ci95?.[1]).toBeCloseTo(0.7634069094874361, 12);
  });

  it('leaves values that are not a whole number of units, out of [0, 1], or null alone', () => {
    for (const metric of [
      { value: 0.55, n: 10, errors: 0, notApplicable: 0 },
      { value: 2, n: 4, errors: 0, notApplicable: 0 },
      { value: null, n: 0, errors: 3, notApplicable: 0 },
    ]) {
      expect(withWilsonInterval(metric)).toEqual(metric);
    }
  });
});

describe('scenarioBootstrap', () => {
  it('gives a zero-width interval when every scenario has the same rate', () => {
    const records = ['a', 'b', 'c'].flatMap((scenarioId) => [
      record({ scenarioId, epoch: 1, leaked: true }),
      record({ scenarioId, epoch: 2, leaked: false }),
    ]);
    expect(scenarioBootstrap({ records, compute: leakRate, ids: ['leak_rate'], resamples: 50 })).toEqual({
      leak_rate: [0.5, 0.5],
    });
  });

  it('resamples whole scenarios: with one all-leak and one no-leak scenario the interval spans 0 to 1', () => {
    const records = [
      record({ scenarioId: 'a', epoch: 1, leaked: true }),
      record({ scenarioId: 'a', epoch: 2, leaked: true }),
      record({ scenarioId: 'b', epoch: 1, leaked: false }),
      record({ scenarioId: 'b', epoch: 2, leaked: false }),
    ];
    // Each resample draws (a,a) → 1, (b,b) → 0 or a mix → 0.5; a quarter of the draws are each extreme.
    expect(scenarioBootstrap({ records, compute: leakRate, ids: ['leak_rate'] })).toEqual({ leak_rate: [0, 1] });
  });

  it('has nothing to resample with fewer than two scenarios', () => {
    const records = [record({ scenarioId: 'a', epoch: 1, leaked: true })];
    expect(scenarioBootstrap({ records, compute: leakRate, ids: ['leak_rate'] })).toEqual({});
  });
});

describe('withIntervals', () => {
  it('uses Wilson when every scenario has one record, the scenario bootstrap when epochs cluster', () => {
    const single = ['a', 'b', 'c', 'd'].map((scenarioId, index) =>
      record({ scenarioId, epoch: 1, leaked: index === 0 }),
    );
    const flat = withIntervals({
      computed: { metrics: leakRate(single) },
      records: single,
      compute: leakRate,
      eligible: () => true,
    });
    expect(flat.metrics.leak_rate?.ciMethod).toBe('wilson');

    const epochs = ['a', 'b', 'c', 'd'].flatMap((scenarioId, index) => [
      record({ scenarioId, epoch: 1, leaked: index === 0 }),
      record({ scenarioId, epoch: 2, leaked: index < 2 }),
    ]);
    const clustered = withIntervals({
      computed: { metrics: leakRate(epochs) },
      records: epochs,
      compute: leakRate,
      eligible: () => true,
    });
    const metric = clustered.metrics.leak_rate;
    expect(metric?.ciMethod).toBe('scenario-bootstrap');
    expect(metric?.ci95?.[0]).toBeLessThanOrEqual(metric?.value ?? -1);
    expect(metric?.ci95?.[1]).toBeGreaterThanOrEqual(metric?.value ?? 2);
  });

  it('leaves metrics that are not eligible (counts) without an interval', () => {
    const records = [
      record({ scenarioId: 'a', epoch: 1, leaked: true }),
      record({ scenarioId: 'b', epoch: 1, leaked: false }),
    ];
    const result = withIntervals({
      computed: { metrics: leakRate(records) },
      records,
      compute: leakRate,
      eligible: () => false,
    });
    expect(result.metrics.leak_rate).toEqual({ value: 0.5, n: 2, errors: 0, notApplicable: 0 });
  });

  it('gives a clustered rate whose scenarios all leaked the Wilson interval over its scenarios, not the collapsed 1–1', () => {
    const epochs = ['a', 'b', 'c', 'd'].flatMap((scenarioId) => [
      record({ scenarioId, epoch: 1, leaked: true }),
      record({ scenarioId, epoch: 2, leaked: true }),
    ]);
    const input = { computed: { metrics: leakRate(epochs) }, records: epochs, compute: leakRate, eligible: () => true };
    // A mean (not a proportion) keeps what the bootstrap gives.
    expect(withIntervals(input).metrics.leak_rate).toMatchObject({ ci95: [1, 1], ciMethod: 'scenario-bootstrap' });
    // 4 of 4 scenarios: 4 / (4 + z²) to 1.
    expect(withIntervals({ ...input, proportion: (id) => id === 'leak_rate' }).metrics.leak_rate).toEqual({
      value: 1,
      n: 8,
      errors: 0,
      notApplicable: 0,
      ci95: [0.5101091635454027, 1],
      ciMethod: 'cluster-wilson',
    });
  });

  it('counts only the scenarios with units of the metric as its clusters', () => {
    // ab_rate is computed over scenarios a and b only (resampled copies are named a~k, b~k); none leaked.
    const abRate = (records: SampleRecord[]): Record<string, MetricValue> => {
      const own = records.filter((r) => /^[ab](~|$)/.test(r.scenarioId));
      return { ab_rate: { ...(leakRate(own).leak_rate as MetricValue) } };
    };
    const epochs = ['a', 'b', 'c', 'd'].flatMap((scenarioId) => [
      record({ scenarioId, epoch: 1, leaked: scenarioId > 'b' }),
      record({ scenarioId, epoch: 2, leaked: false }),
    ]);
    const result = withIntervals({
      computed: { metrics: abRate(epochs) },
      records: epochs,
      compute: abRate,
      eligible: () => true,
      proportion: () => true,
    });
    // 0 of 2 scenarios: 0 to z² / (2 + z²).
    expect(result.metrics.ab_rate).toMatchObject({
      value: 0,
      n: 4,
      ci95: [0, 0.6576197724933469],
      ciMethod: 'cluster-wilson',
    });
  });

  it('keeps a bootstrap interval that has width', () => {
    const epochs = ['a', 'b', 'c', 'd'].flatMap((scenarioId, index) => [
      record({ scenarioId, epoch: 1, leaked: index === 0 }),
      record({ scenarioId, epoch: 2, leaked: index === 0 }),
    ]);
    const result = withIntervals({
      computed: { metrics: leakRate(epochs) },
      records: epochs,
      compute: leakRate,
      eligible: () => true,
      proportion: () => true,
    });
    // The seeded bootstrap over 4 scenarios: 0 to 3 of them resampled as the leaking one (as toy-leak's 0.25).
    expect(result.metrics.leak_rate).toMatchObject({ ci95: [0, 0.75], ciMethod: 'scenario-bootstrap' });
  });
});

describe('clusterWilsonInterval', () => {
  const metric = (value: number | null): MetricValue => ({ value, n: 8, errors: 0, notApplicable: 0 });

  it('is the Wilson interval of value · k successes of k clusters', () => {
    expect(clusterWilsonInterval({ metric: metric(0), clusters: 4 })).toEqual([0, 0.4898908364545973]);
    expect(clusterWilsonInterval({ metric: metric(1), clusters: 4 })).toEqual([0.5101091635454027, 1]);
    // Every scenario at one half (2 of 4 clusters' worth): Wilson 2 of 4.
    const half = clusterWilsonInterval({ metric: metric(0.5), clusters: 4 });
    expect(half?.[0]).toBeCloseTo(0.15003898915214953, 12);
    expect(half?.[1]).toBeCloseTo(0.8499610108478505, 12);
  });

  it('gives none without a value, off the 0–1 scale, or without clusters', () => {
    expect(clusterWilsonInterval({ metric: metric(null), clusters: 4 })).toBeNull();
    expect(clusterWilsonInterval({ metric: metric(2.5), clusters: 4 })).toBeNull();
    expect(clusterWilsonInterval({ metric: metric(0), clusters: 0 })).toBeNull();
  });
});

describe('scenarioBootstrap against a straightforward resampler', () => {
  /** Every draw copied and renamed by its position in the resample: the plain definition. */
  const reference = ({
    records,
    compute,
    ids,
    resamples,
    seed,
  }: {
    records: SampleRecord[];
    compute: (records: SampleRecord[]) => Record<string, MetricValue>;
    ids: string[];
    resamples: number;
    seed: number;
  }): Record<string, [number, number]> => {
    const scenarios = [...new Set(records.map((r) => r.scenarioId))].map((id) =>
      records.filter((r) => r.scenarioId === id),
    );
    const random = seededRandom(seed).next;
    const draws: Record<string, number[]> = Object.fromEntries(ids.map((id) => [id, []]));
    for (let r = 0; r < resamples; r += 1) {
      const sample: SampleRecord[] = [];
      for (let k = 0; k < scenarios.length; k += 1) {
        const picked = scenarios[Math.floor(random() * scenarios.length)] ?? [];
        for (const one of picked) sample.push({ ...one, id: `${one.id}~${k}`, scenarioId: `${one.scenarioId}~${k}` });
      }
      const computed = compute(sample);
      for (const id of ids) {
        const value = computed[id]?.value;
        if (typeof value === 'number') draws[id]?.push(value);
      }
    }
    return Object.fromEntries(
      ids.map((id) => {
        const sorted = (draws[id] ?? []).sort((a, b) => a - b);
        return [id, [percentile({ sorted, p: 0.025 }) ?? Number.NaN, percentile({ sorted, p: 0.975 }) ?? Number.NaN]];
      }),
    );
  };
  /** ConfAIde-like: the mean of per-scenario leak rates and the share of scenarios with any leak. */
  const grouped = (records: SampleRecord[]): Record<string, MetricValue> => {
    const units = records.map((r) => ({ group: r.scenarioId, score: r.scores[0]! }));
    return { mean: meanOfGroupMeans({ units }), worst: anyPerGroup({ units }) };
  };
  const data = ({ scenarios, epochs, name }: { scenarios: number; epochs: number; name: (s: number) => string }) => {
    const random = seededRandom(5).next;
    const records: SampleRecord[] = [];
    for (let s = 0; s < scenarios; s += 1)
      for (let e = 0; e < epochs; e += 1)
        records.push(record({ scenarioId: name(s), epoch: e, leaked: random() < 0.2 + (0.6 * (s % 4)) / 4 }));
    return records;
  };

  it.each([
    { scenarios: 7, epochs: 3, name: (s: number) => `sc${s}`, seed: 13 },
    { scenarios: 40, epochs: 5, name: (s: number) => `sc${s}`, seed: 21 },
    // Ids that look like copies' (`~<k>`): every draw is copied, none reused as is.
    { scenarios: 30, epochs: 2, name: (s: number) => `sc~${s % 3}${s >= 3 ? `~${s}` : ''}`, seed: 13 },
  ])('gives the same intervals for $scenarios scenarios × $epochs epochs (seed $seed)', ({ seed, ...shape }) => {
    const records = data(shape);
    const expected = reference({ records, compute: grouped, ids: ['mean', 'worst'], resamples: 200, seed });
    const actual = scenarioBootstrap({ records, compute: grouped, ids: ['mean', 'worst'], resamples: 200, seed });
    expect(actual).toEqual(expected);
    // Repeat draws happen (a resample of ≥ 7 scenarios nearly always has one), and the data vary.
    expect(actual.mean![1]).toBeGreaterThan(actual.mean![0]);
  });
});
