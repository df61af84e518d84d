import { z } from 'zod';
import { FIDELITY_MODES } from './fidelity.js';
import { priceOverridesSchema } from './model-price.js';

/**
 * Everything that defines a run. Stored in `header.json`; `resume` re-expands it.
 * The plan hash covers what changes results (suite, options, models, defenses, epochs,
 * selection, seed) and not how it is executed (shard, concurrency, cache, budgets, prices, fail-fast).
 */
export const runPlanSchema = z.object({
  suite: z.string(),
  suiteOptions: z.record(z.string(), z.unknown()).default({}),
  /**
   * `--fidelity`: `upstream` lays the suite's upstream options beneath `suiteOptions` (docs/fidelity.md).
   * Absent means `confidant` (plans written before the flag existed read the same).
   */
  fidelity: z.enum(FIDELITY_MODES).optional(),
  models: z.array(z.object({ role: z.string(), spec: z.string() })).default([]),
  modelSettings: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  defenses: z.array(z.string()).default([]),
  epochs: z.number().int().positive().default(1),
  limit: z.number().int().positive().optional(),
  sampleIds: z.array(z.string()).optional(),
  seed: z.number().int().default(0),
  concurrency: z.number().int().positive().default(4),
  maxConnections: z.number().int().positive().default(8),
  maxRetries: z.number().int().min(0).default(5),
  /** `--request-timeout s`: the client timeout of one HTTP request, in milliseconds (default 10 min). */
  requestTimeoutMs: z.number().int().positive().default(600_000),
  /** `--max-retry-after s`: the longest `Retry-After` a retry obeys, in milliseconds (default 2 min). */
  maxRetryAfterMs: z.number().int().min(0).default(120_000),
  cache: z.boolean().default(true),
  maxCostUsd: z.number().positive().optional(),
  maxTokens: z.number().int().positive().optional(),
  /** `--fail-fast k`: stop once k samples in a row failed with the same provider cause (0: never). */
  failFast: z.number().int().min(0).default(5),
  /**
   * `--max-error-rate r`: stop once more than this share of the samples run failed (measured from
   * 20 samples on), and exit 4 when a finished run is over it.
   */
  maxErrorRate: z.number().min(0).max(1).default(0.2),
  shard: z.object({ index: z.number().int().positive(), count: z.number().int().positive() }).optional(),
  /** `--price` / `prices`: USD per million tokens by model (see `priceOverridesSchema`); feeds cost and `--max-cost`. */
  prices: priceOverridesSchema.optional(),
});
export type RunPlan = z.infer<typeof runPlanSchema>;
export type RunPlanInput = z.input<typeof runPlanSchema>;

/** The fields of a plan that define its results; two shards of one run agree on these. */
export function planIdentity(plan: RunPlan): Record<string, unknown> {
  return {
    suite: plan.suite,
    suiteOptions: plan.suiteOptions,
    // Only `upstream` enters the identity, so plans without the flag keep their hash.
    ...(plan.fidelity === 'upstream' ? { fidelity: plan.fidelity } : {}),
    models: plan.models,
    modelSettings: plan.modelSettings,
    defenses: plan.defenses,
    epochs: plan.epochs,
    limit: plan.limit ?? null,
    sampleIds: plan.sampleIds ?? null,
    seed: plan.seed,
  };
}
