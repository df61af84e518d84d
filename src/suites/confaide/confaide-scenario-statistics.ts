import { meanOf } from '../../metrics/mean.js';
import type { ScenarioStatistics } from '../../metrics/metric-intervals.js';
import { pearson } from '../../metrics/pearson.js';
import type { ConfaideOptions } from './confaide-options.js';
import { proxyActive } from './confaide-options.js';
import { confaideOutputSchema } from './confaide-output.js';
import { METRIC_COMPONENTS, PROXY_COMPONENT, RATING_SCORER, scorerId } from './metric-components.js';
import { componentScore } from './metrics.js';
import { PROXY_SCORER } from './proxy-judge.js';

/** One tier-3/4 component as the statistics tally it: the question it is asked on and its score. */
type Tallied = { question: string; scorer: string; query: { name: string }; metric: string };

/**
 * ConfAIde's flat metrics from per-scenario statistics, for the summary's bootstrap (see
 * `ScenarioStatistics`): the same values as `confaideMetrics`. Tiers 3/4: per scenario and
 * component, its fails and pass/fail units, from which `<metric>` is the mean over scenarios of
 * fails / units (summed in draw order, as `meanOfGroupMeans` sums them) and `<metric>_worst` the
 * share of scenarios with a fail. Tiers 1/2: per scenario (item), the mean of its parsed ratings
 * and its human label, from which `pearson` pairs the items in draw order.
 */
export function confaideScenarioStatistics(options: ConfaideOptions): ScenarioStatistics {
  if (options.tier === '1' || options.tier === '2a' || options.tier === '2b') return ratingStatistics();
  const components: Tallied[] = [];
  for (const question of options.questions) {
    for (const component of METRIC_COMPONENTS[question] ?? []) {
      components.push({
        question,
        scorer: scorerId(question),
        query: { name: component.target },
        metric: component.metric,
      });
    }
    if (question === 'free-response' && proxyActive(options)) {
      components.push({
        question,
        scorer: PROXY_SCORER,
        query: { name: PROXY_COMPONENT.target },
        metric: PROXY_COMPONENT.metric,
      });
    }
  }
  return componentStatistics(components);
}

/** Per scenario: `[fails, units]` of each component, flattened (`2c`, `2c + 1`). */
function componentStatistics(components: readonly Tallied[]): ScenarioStatistics<Float64Array> {
  return {
    summarize(records) {
      const tally = new Float64Array(components.length * 2);
      for (const record of records) {
        const question = record.variant.question;
        if (question === undefined) continue;
        for (let c = 0; c < components.length; c += 1) {
          const component = components[c]!;
          if (component.question !== question) continue;
          const score = componentScore({ record, scorer: component.scorer, query: component.query });
          if (score === undefined || score.verdict === 'error' || score.verdict === 'not-applicable') continue;
          tally[2 * c + 1] = (tally[2 * c + 1] ?? 0) + 1;
          if (score.verdict === 'fail') tally[2 * c] = (tally[2 * c] ?? 0) + 1;
        }
      }
      return tally;
    },
    values(summaries) {
      const values: Record<string, number | null> = {};
      for (let c = 0; c < components.length; c += 1) {
        let sum = 0;
        let n = 0;
        let worst = 0;
        for (const tally of summaries) {
          const units = tally[2 * c + 1]!;
          if (units === 0) continue;
          const fails = tally[2 * c]!;
          sum += fails / units;
          n += 1;
          if (fails > 0) worst += 1;
        }
        const metric = components[c]!.metric;
        values[metric] = n === 0 ? null : sum / n;
        values[`${metric}_worst`] = n === 0 ? null : worst / n;
      }
      return values;
    },
  };
}

/** Per item: the mean of its parsed ratings (null without one) and its human label. */
type RatedItem = { mean: number | null; label: number | undefined };

function ratingStatistics(): ScenarioStatistics<RatedItem> {
  return {
    summarize(records) {
      let label: number | undefined;
      const ratings: number[] = [];
      for (const record of records) {
        if (record.variant.question !== 'rating') continue;
        const output = confaideOutputSchema.safeParse(record.output);
        if (output.success && output.data.humanLabel !== undefined) label = output.data.humanLabel;
        const score =
          record.status === 'ok' ? record.scores.find((candidate) => candidate.scorer === RATING_SCORER) : undefined;
        if (score?.verdict === 'pass' && score.value !== null) ratings.push(score.value);
      }
      return { mean: meanOf(ratings), label };
    },
    values(summaries) {
      const x: number[] = [];
      const y: number[] = [];
      for (const { mean, label } of summaries) {
        if (mean === null || label === undefined) continue;
        x.push(mean);
        y.push(label);
      }
      return { pearson: pearson({ x, y }) };
    },
  };
}
