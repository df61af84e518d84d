import { meanValue, passRate, withReason } from '../../metrics/index.js';
import type { MetricValue } from '../../spec/metric-value.js';
import type { Score } from '../../spec/score.js';
import type { PacEpisodeOutcome } from './episode-outcome.js';

const SCORER = 'pac-analysis';
const NONE = 'no successful run has an outcome-check score (no scenario declares checks.outcome)';

/**
 * The outcome-check metrics over successful runs whose scenario declares checks:
 * - `overall` (`check_score`): the mean of each run's passed / applicable share; a run whose
 *   check could not be decided counts in `errors`, one where no check applied in `notApplicable`;
 * - `byCheck` (group `outcome_check`): per check id, the share of those runs in which it passed
 *   (checks of different scenarios with one id are pooled).
 */
export function outcomeCheckMetrics({ outcomes }: { outcomes: readonly PacEpisodeOutcome[] }): {
  overall: MetricValue;
  byCheck: Record<string, MetricValue>;
} {
  const runs = outcomes.filter((outcome) => outcome.status === 'success' && outcome.checks !== undefined);
  const shares: Score[] = runs.map(({ checks }) => ({
    scorer: SCORER,
    verdict: checks?.verdict ?? 'error',
    value: checks?.share ?? null,
  }));
  const perCheck = new Map<string, Score[]>();
  for (const { checks } of runs) {
    for (const [id, verdict] of Object.entries(checks?.byCheck ?? {})) {
      const list = perCheck.get(id) ?? [];
      list.push({ scorer: SCORER, verdict, value: verdict === 'pass' ? 1 : verdict === 'fail' ? 0 : null });
      perCheck.set(id, list);
    }
  }
  return {
    overall: withReason(meanValue(shares), () => (shares.length === 0 ? NONE : `no run's checks were decided`)),
    byCheck: Object.fromEntries(
      [...perCheck.entries()]
        .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
        .map(([id, scores]) => [id, passRate(scores)]),
    ),
  };
}
