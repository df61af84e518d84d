import { z } from 'zod';

/**
 * One metric with its denominators. `value` is null when no sample could be scored.
 * `n` counts the scored units; `errors` and `notApplicable` count the ones left out.
 */
export const metricValueSchema = z.object({
  value: z.number().nullable(),
  n: z.number(),
  errors: z.number(),
  notApplicable: z.number(),
  stderr: z.number().optional(),
  ci95: z.tuple([z.number(), z.number()]).optional(),
});
export type MetricValue = z.infer<typeof metricValueSchema>;

/** How a report should render a metric. */
/** `count` values are whole numbers (e.g. valid actions), shown without decimals. */
export type MetricDisplay = { label: string; scale?: 'fraction' | 'percent' | 'raw' | 'count'; description?: string };
