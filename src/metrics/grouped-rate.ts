import type { MetricValue } from '../spec/metric-value.js';
import type { Score } from '../spec/score.js';
import { meanOf, standardErrorOf } from './mean.js';
import { reasonFromScores } from './null-reason.js';

/** One scored unit (e.g. one epoch's score) and the group it belongs to (e.g. its scenario). */
export type GroupedScore = { group: string; score: Score };

type GroupTally = { fails: number; scored: number };

type Tally = { groups: GroupTally[]; errors: number; notApplicable: number };

/**
 * Per-group pass/fail tallies (groups in first-seen order, those without a pass/fail unit left
 * out) plus the unit-level error and not-applicable counts. Tallied in one pass without
 * collecting each group's units: a summary's bootstrap calls this for every resample.
 */
function tallyGroups(units: readonly GroupedScore[]): {
  groups: GroupTally[];
  errors: number;
  notApplicable: number;
} {
  let errors = 0;
  let notApplicable = 0;
  const byGroup = new Map<string, GroupTally>();
  for (const { group, score } of units) {
    let tally = byGroup.get(group);
    if (tally === undefined) {
      tally = { fails: 0, scored: 0 };
      byGroup.set(group, tally);
    }
    if (score.verdict === 'error') errors += 1;
    else if (score.verdict === 'not-applicable') notApplicable += 1;
    else {
      tally.scored += 1;
      if (score.verdict === 'fail') tally.fails += 1;
    }
  }
  const groups: GroupTally[] = [];
  for (const tally of byGroup.values()) if (tally.scored > 0) groups.push(tally);
  return { groups, errors, notApplicable };
}

/**
 * Mean over groups of the within-group fail rate (ConfAIde's `_mean`): each group weighs the
 * same however many units it has. `n` is the number of groups with at least one pass/fail unit;
 * `errors` and `notApplicable` count units. `stderr` is the standard error of the group rates.
 */
export function meanOfGroupMeans({ units }: { units: readonly GroupedScore[] }): MetricValue {
  return meanOfTally({ tally: tallyGroups(units), units });
}

function meanOfTally({ tally, units }: { tally: Tally; units: readonly GroupedScore[] }): MetricValue {
  const { groups, errors, notApplicable } = tally;
  const rates = groups.map((group) => group.fails / group.scored);
  const stderr = standardErrorOf(rates);
  const value = meanOf(rates);
  return {
    value,
    n: groups.length,
    errors,
    notApplicable,
    ...(stderr === undefined ? {} : { stderr }),
    ...(value === null ? { reason: reasonFromScores(units.map((unit) => unit.score)) } : {}),
  };
}

/**
 * Share of groups in which at least one unit failed (ConfAIde's `_worst_case`, Leak@K).
 * Only pass/fail units decide; a group with nothing but errors is left out of `n`.
 * `errors` and `notApplicable` count units; `stderr` is binomial over groups.
 */
export function anyPerGroup({ units }: { units: readonly GroupedScore[] }): MetricValue {
  return anyOfTally({ tally: tallyGroups(units), units });
}

function anyOfTally({ tally, units }: { tally: Tally; units: readonly GroupedScore[] }): MetricValue {
  const { groups, errors, notApplicable } = tally;
  const n = groups.length;
  if (n === 0) {
    return { value: null, n, errors, notApplicable, reason: reasonFromScores(units.map((unit) => unit.score)) };
  }
  const value = groups.filter((group) => group.fails > 0).length / n;
  return { value, n, errors, notApplicable, stderr: Math.sqrt((value * (1 - value)) / n) };
}

/**
 * {@link meanOfGroupMeans} and {@link anyPerGroup} of the same units from one tally (the same
 * values as calling both): suites report the two side by side, and the summary's bootstrap
 * computes them for every resample.
 */
export function meanAndAnyPerGroup({ units }: { units: readonly GroupedScore[] }): {
  mean: MetricValue;
  any: MetricValue;
} {
  const tally = tallyGroups(units);
  return { mean: meanOfTally({ tally, units }), any: anyOfTally({ tally, units }) };
}
