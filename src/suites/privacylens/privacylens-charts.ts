import { wilsonInterval } from '../../metrics/index.js';
import type { SampleRecord } from '../../spec/run-record.js';
import type { SuiteChart } from '../suite.js';
import { LEAK_SCORER } from './leak-judge.js';
import { CASE_TARGET } from './score-sample.js';

/**
 * PrivacyLens's Leak@k curve: for k = 1…K (K the run's epochs), the share of cases whose
 * case-level leak verdict failed in at least one of their first k decided epochs, over the cases
 * with k decided epochs (95% Wilson intervals). None for runs of one epoch.
 */
export function privacyLensCharts({ records }: { records: readonly SampleRecord[] }): SuiteChart[] {
  const byCase = new Map<string, Array<{ epoch: number; leaked: boolean }>>();
  for (const record of records) {
    const verdict = record.scores.find(
      (score) => score.scorer === LEAK_SCORER && score.target === CASE_TARGET,
    )?.verdict;
    if (verdict !== 'pass' && verdict !== 'fail') continue;
    byCase.set(record.scenarioId, [
      ...(byCase.get(record.scenarioId) ?? []),
      { epoch: record.epoch, leaked: verdict === 'fail' },
    ]);
  }
  const cases = [...byCase.values()].map((list) => [...list].sort((a, b) => a.epoch - b.epoch));
  const maxK = Math.max(0, ...cases.map((list) => list.length));
  if (maxK < 2) return [];
  const points = Array.from({ length: maxK }, (_, index) => {
    const k = index + 1;
    const eligible = cases.filter((list) => list.length >= k);
    const successes = eligible.filter((list) => list.slice(0, k).some((epoch) => epoch.leaked)).length;
    const interval = wilsonInterval({ successes, n: eligible.length });
    return {
      label: String(k),
      value: eligible.length === 0 ? null : successes / eligible.length,
      ...(interval === null ? {} : { lower: interval.lower, upper: interval.upper }),
    };
  });
  return [
    {
      kind: 'curve',
      title: 'Leak@k: a leak in any of the first k epochs',
      xLabel: 'k',
      yLabel: 'cases (%)',
      scale: 'percent',
      points,
    },
  ];
}
