/**
 * How a metric's stored value is shown: `percent` (stored on 0–1, shown ×100), `fraction`
 * (0–1, shown as is), `raw` (a mean or score on its own range) or `count` (a whole number).
 */
export type MetricScale = 'fraction' | 'percent' | 'raw' | 'count';

/** Which way is better: `higher`, `lower`, or `neutral` for counts and diagnostics that are neither. */
export type MetricDirection = 'higher' | 'lower' | 'neutral';

/**
 * Where a metric comes from: `paper` (a table or equation of the suite's paper), `upstream-code`
 * (what the public upstream repository computes), or `extension` (ours, not in either source).
 */
export type MetricSourceKind = 'paper' | 'upstream-code' | 'extension';

/** A metric's origin, with a reference a reader can look up (paper table, repository file, spec section). */
export type MetricSource = { kind: MetricSourceKind; reference: string };

/**
 * Everything a reader needs to interpret one metric, registered once next to the suite that
 * computes it. Reports, `confidant list metrics` and `docs/metrics.md` are all generated from it.
 * Values in `summary.json` are stored on `range` (rates on 0–1) whatever `scale` shows.
 */
export type MetricDefinition = {
  /** The key in `summary.json` (`metrics.<id>`, or a column of a breakdown in `groups`). */
  id: string;
  /** The short name reports print (`LR`, `Acc_joint`). */
  label: string;
  /** One or two sentences: what the number says. */
  definition: string;
  /** How it is computed, in words and symbols (`leaking samples / judged samples`). */
  formula: string;
  /** What `n` counts, and what goes to `errors` and `notApplicable` instead. */
  denominator: string;
  direction: MetricDirection;
  scale: MetricScale;
  /** The stored value's range, when it has one (rates 0–1, helpfulness 0–3). */
  range?: { min: number; max: number };
  source: MetricSource;
  /**
   * The breakdowns (`summary.groups.<name>`) that carry this metric as a column, when it does not
   * appear among the top-level metrics (e.g. PAC-Bench's first-violation `share`).
   */
  groups?: readonly string[];
};

/** Metric definitions by id; later entries win, so a list can extend another. */
export function indexMetricDefinitions(
  definitions: readonly MetricDefinition[],
): Readonly<Record<string, MetricDefinition>> {
  return Object.fromEntries(definitions.map((definition) => [definition.id, definition]));
}
