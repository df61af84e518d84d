import type { RunSummary } from '../../spec/run-record.js';
import type { SuiteChart } from '../suite.js';

/**
 * PAC's chart: the histogram of the first violation turn (Table 9), read from the summary's
 * `first_violation_turn` breakdown (runs that leaked, by the turn of their first violation).
 * None when the run has no such breakdown.
 */
export function pacCharts({ summary }: { summary: RunSummary }): SuiteChart[] {
  const bins = summary.groups?.first_violation_turn;
  if (bins === undefined || Object.keys(bins).length === 0) return [];
  return [
    {
      kind: 'columns',
      title: 'First violation turn (runs that violated privacy)',
      xLabel: 'turn of the first violation',
      yLabel: 'runs',
      scale: 'count',
      points: Object.entries(bins).map(([bin, metrics]) => ({ label: bin, value: metrics.count?.value ?? null })),
    },
  ];
}
