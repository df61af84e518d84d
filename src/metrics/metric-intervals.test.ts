import { describe, expect, it } from 'vitest';
import type { MetricValue } from '../spec/metric-value.js';
import type { SampleRecord } from '../spec/run-record.js';
import { scenarioBootstrap, withIntervals, withWilsonInterval } from './metric-intervals.js';

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
});
