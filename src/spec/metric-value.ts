import { z } from 'zod';

/**
 * One metric with its denominators. `value` is null when no sample could be scored, and then
 * `reason` says why in one sentence (e.g. `all 12 verdicts were error: no valid 'Answer:' line`).
 * `n` counts the scored units; `errors` and `notApplicable` count the ones left out. A value is
 * never given for an empty denominator (`n` = 0), except by a named `convention`.
 */
export const metricValueSchema = z.object({
  value: z.number().nullable(),
  n: z.number(),
  errors: z.number(),
  notApplicable: z.number(),
  stderr: z.number().optional(),
  /** The 95% confidence interval [lower, upper] on the stored scale. */
  ci95: z.tuple([z.number(), z.number()]).optional(),
  /**
   * How `ci95` was computed: `wilson` (the Wilson score interval of a proportion of independent
   * units) or `scenario-bootstrap` (percentile bootstrap resampling whole scenarios, for rates whose
   * units are clustered, e.g. epochs of one scenario, or aggregated, e.g. worst case over epochs),
   * or `cluster-wilson` (a clustered proportion whose bootstrap collapsed to one point because every
   * scenario gave the same value: the Wilson interval counting each scenario as one unit).
   */
  ciMethod: z.enum(['wilson', 'scenario-bootstrap', 'cluster-wilson']).optional(),
  reason: z.string().optional(),
  /**
   * Set when the value is a convention, not a measurement over `n` units, in one sentence: e.g.
   * PAC-Bench's grounded rate of 1.0 when nothing was evaluated (`--fidelity upstream`,
   * docs/fidelity.md). Such a value may have `n` = 0, carries no interval, and reports print the
   * sentence beside it.
   */
  convention: z.string().optional(),
});
export type MetricValue = z.infer<typeof metricValueSchema>;

/** How a report should render a metric. */
/** `count` values are whole numbers (e.g. valid actions), shown without decimals. */
export type MetricDisplay = { label: string; scale?: 'fraction' | 'percent' | 'raw' | 'count'; description?: string };
