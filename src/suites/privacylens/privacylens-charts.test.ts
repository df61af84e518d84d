import { describe, expect, it } from 'vitest';
import type { SampleRecord } from '../../spec/run-record.js';
import { LEAK_SCORER } from './leak-judge.js';
import { privacyLensCharts } from './privacylens-charts.js';
import { CASE_TARGET } from './score-sample.js';

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
  seed: epoch,
  status: 'ok',
  startedAt: '2026-12-01T00:00:00.000Z',
  finishedAt: '2026-12-01T00:00:01.000Z',
  attempt: 1,
  output: null,
  scores: [{ scorer: LEAK_SCORER, target: CASE_TARGET, verdict: leaked ? 'fail' : 'pass', value: leaked ? 1 : 0 }],
  events: [],
  usage: {},
});

describe('privacyLensCharts', () => {
  it('draws Leak@k over k = 1…K: a case counts once any of its first k epochs leaked', () => {
    // Case a leaks in epoch 1, b only in epoch 2, c never, d never: Leak@1 = 1/4, Leak@2 = 2/4.
    const records = [
      record({ scenarioId: 'a', epoch: 1, leaked: true }),
      record({ scenarioId: 'a', epoch: 2, leaked: false }),
      record({ scenarioId: 'b', epoch: 1, leaked: false }),
      record({ scenarioId: 'b', epoch: 2, leaked: true }),
      record({ scenarioId: 'c', epoch: 1, leaked: false }),
      record({ scenarioId: 'c', epoch: 2, leaked: false }),
      record({ scenarioId: 'd', epoch: 2, leaked: false }),
      record({ scenarioId: 'd', epoch: 1, leaked: false }),
    ];
    const [chart] = privacyLensCharts({ records });
    expect(chart?.kind).toBe('curve');
    expect(chart?.points.map((point) => [point.label, point.value])).toEqual([
      ['1', 0.25],
      ['2', 0.5],
    ]);
    // Wilson 95% for 2 of 4.
    expect(chart?.points[1]?.lower).toBeCloseTo(0.15, 2);
    expect(chart?.points[1]?.upper).toBeCloseTo(0.85, 2);
  });

  it('draws nothing for a run of one epoch', () => {
    expect(privacyLensCharts({ records: [record({ scenarioId: 'a', epoch: 1, leaked: true })] })).toEqual([]);
  });
});
