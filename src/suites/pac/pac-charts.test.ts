import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../spec/run-record.js';
import { pacCharts } from './pac-charts.js';

const metric = (value: number) => ({ value, n: 5, errors: 0, notApplicable: 0 });

describe('pacCharts', () => {
  it('draws the first-violation-turn histogram from the summary breakdown, bins in order', () => {
    const summary = {
      groups: {
        first_violation_turn: {
          '1': { count: metric(3), share: metric(0.6) },
          '2': { count: metric(0), share: metric(0) },
          '10+': { count: metric(2), share: metric(0.4) },
        },
      },
    } as unknown as RunSummary;
    expect(pacCharts({ summary })).toEqual([
      {
        kind: 'columns',
        title: 'First violation turn (runs that violated privacy)',
        xLabel: 'turn of the first violation',
        yLabel: 'runs',
        scale: 'count',
        points: [
          { label: '1', value: 3 },
          { label: '2', value: 0 },
          { label: '10+', value: 2 },
        ],
      },
    ]);
  });

  it('draws nothing without the breakdown', () => {
    expect(pacCharts({ summary: {} as RunSummary })).toEqual([]);
  });
});
