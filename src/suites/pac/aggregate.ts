import { groupBy, meanOverGroups, meanValue, passRate, reasonFromScores, withReason } from '../../metrics/index.js';
import type { MetricValue } from '../../spec/metric-value.js';
import type { Score } from '../../spec/score.js';
import type { PacEpisodeOutcome } from './episode-outcome.js';
import { type PacErrorPolicy, pacRunComponents } from './run-components.js';

/** The §8.2 metric ids, in the paper's table order. Stored as fractions in [0, 1]. */
export const PAC_HEADLINE_METRICS = ['ts', 'ps', 'acc_task', 'acc_privacy', 'acc_joint'] as const;
/** One of {@link PAC_HEADLINE_METRICS}. */
export type PacHeadlineMetricId = (typeof PAC_HEADLINE_METRICS)[number];
/** The five §8.2 metrics of one set of runs. */
export type PacHeadline = Record<PacHeadlineMetricId, MetricValue>;

/** Label of a seat model that no output or sample variant names. */
export const UNKNOWN_MODEL = 'unknown';

/**
 * The §8.2 metrics over a set of runs: TS = mean ts_r, PS = mean p_r / 2, and the shares of
 * taskOk, privOk and jointOk, under `policy` (see `PacErrorPolicy`).
 */
export function pacHeadline({
  outcomes,
  policy,
}: {
  outcomes: readonly PacEpisodeOutcome[];
  policy: PacErrorPolicy;
}): PacHeadline {
  const components = outcomes.map((outcome) => pacRunComponents({ outcome, policy }));
  // Reasons speak of runs: "all 4 runs were error: task judgment failed: …".
  const over = (scores: Score[], metric: (scores: Score[]) => MetricValue) =>
    withReason(metric(scores), () => reasonFromScores(scores, 'run'));
  return {
    ts: over(
      components.map((component) => component.ts),
      meanValue,
    ),
    ps: over(
      components.map((component) => component.ps),
      meanValue,
    ),
    acc_task: over(
      components.map((component) => component.taskOk),
      passRate,
    ),
    acc_privacy: over(
      components.map((component) => component.privOk),
      passRate,
    ),
    acc_joint: over(
      components.map((component) => component.jointOk),
      passRate,
    ),
  };
}

/** The initiator's model label. */
export function initiatorModel(outcome: PacEpisodeOutcome): string {
  return outcome.seats[0]?.model || UNKNOWN_MODEL;
}

/**
 * The other seats' model labels joined with `~` (one model for the paper's pairs); several
 * partners with one label collapse to `<label> ×<count>` (e.g. `reference:naive ×3`).
 */
export function partnerModels(outcome: PacEpisodeOutcome): string {
  const partners = outcome.seats.slice(1).map((seat) => seat.model || UNKNOWN_MODEL);
  if (partners.length === 0) return UNKNOWN_MODEL;
  if (partners.length > 1 && partners.every((partner) => partner === partners[0])) {
    return `${partners[0]} ×${partners.length}`;
  }
  return partners.join('~');
}

/** `<initiator>~<partner>[~…]`: the pair (seat tuple) a run belongs to. */
export function pairKey(outcome: PacEpisodeOutcome): string {
  return `${initiatorModel(outcome)}~${partnerModels(outcome)}`;
}

/** {@link pacHeadline} within each group of `key`, groups in first-seen order. */
export function headlineBy({
  outcomes,
  policy,
  key,
}: {
  outcomes: readonly PacEpisodeOutcome[];
  policy: PacErrorPolicy;
  key: (outcome: PacEpisodeOutcome) => string;
}): Record<string, PacHeadline> {
  const result: Record<string, PacHeadline> = {};
  for (const [group, members] of groupBy({ items: outcomes, key })) {
    result[group] = pacHeadline({ outcomes: members, policy });
  }
  return result;
}

/**
 * Per initiator (or, with `by: 'partner'`, per partner): for each of its pairs the §8.2
 * metrics, then the unweighted mean over the other side's models (§8.3, paper Table 11).
 */
export function headlineMeanOverPairs({
  outcomes,
  policy,
  by,
}: {
  outcomes: readonly PacEpisodeOutcome[];
  policy: PacErrorPolicy;
  by: 'initiator' | 'partner';
}): Record<string, PacHeadline> {
  const side = by === 'initiator' ? initiatorModel : partnerModels;
  const result: Record<string, PacHeadline> = {};
  for (const [model, members] of groupBy({ items: outcomes, key: side })) {
    const pairs = Object.values(headlineBy({ outcomes: members, policy, key: pairKey }));
    const headline = {} as PacHeadline;
    for (const metric of PAC_HEADLINE_METRICS) {
      headline[metric] = meanOverGroups(pairs.map((pair) => pair[metric]));
    }
    result[model] = headline;
  }
  return result;
}
