import type { ResumeOverrides } from '../runner/index.js';
import { PlanValidationError } from '../spec/errors.js';
import { type RefusedFlag, refusedFlags } from './flag-meta.js';
import { secondsToMs } from './parse-assignments.js';
import { runFlagTable } from './run-flag-table.js';
import type { RunFlagValues } from './run-flags.js';

/** The flags of `resume` that may change how (not what) a run runs, parsed by `runFlagSchema`. */
export type ResumeOverrideFlags = Pick<
  RunFlagValues,
  | 'concurrency'
  | 'maxConnections'
  | 'maxRetries'
  | 'requestTimeout'
  | 'maxRetryAfter'
  | 'maxCost'
  | 'maxTokens'
  | 'failFast'
  | 'maxErrorRate'
  | 'cache'
  | 'model'
  | 'prices'
>;

/** What `resume` accepts, for messages. */
export const RESUME_OVERRIDES =
  '--data-dir, --cache-dir, --no-cache, --concurrency, --max-connections, --max-retries, --request-timeout, --max-retry-after, --max-cost, --max-tokens, --fail-fast, --max-error-rate, --price, --retry-errors, --fail-on-error, --no-preflight, and --model role=<the same provider:model>@<new base URL>';

/** A `run` flag that `resume` refuses, with why. */
export type RefusedResumeFlag = RefusedFlag;

/** The `run` flags `resume` declares only to refuse them with a reason (`refuse.resume` in `runFlagSchema`). */
export const REFUSED_RESUME_FLAGS: readonly RefusedResumeFlag[] = refusedFlags(runFlagTable, 'resume');

/**
 * Refuses `run` flags given to `resume` (suite flags included): one message naming each with its
 * reason, what resume does accept, and that a new run is the way to change them.
 */
export function refuseResumeFlags({
  flags,
  refused,
  suite,
}: {
  flags: Record<string, unknown>;
  refused: readonly RefusedResumeFlag[];
  suite: string;
}): void {
  const given = refused.filter((entry) => flags[entry.key] !== undefined);
  if (given.length === 0) return;
  const reasons = given.map((entry) => `${entry.flag} (${entry.why})`).join('; ');
  throw new PlanValidationError(
    `resume continues a run exactly as its header.json plans it, so it cannot take ${reasons}. To change that, start a new run (confidant run ${suite} …); resume accepts only ${RESUME_OVERRIDES}`,
  );
}

/** The resume overrides the flags give (`--max-cost` is `maxCostUsd`, each `--model` a role binding text). */
export function resumeOverridesOf(flags: ResumeOverrideFlags): ResumeOverrides {
  return {
    concurrency: flags.concurrency,
    maxConnections: flags.maxConnections,
    maxRetries: flags.maxRetries,
    requestTimeoutMs: secondsToMs(flags.requestTimeout),
    maxRetryAfterMs: secondsToMs(flags.maxRetryAfter),
    maxCostUsd: flags.maxCost,
    maxTokens: flags.maxTokens,
    failFast: flags.failFast,
    maxErrorRate: flags.maxErrorRate,
    cache: flags.cache,
    models: flags.model,
    prices: flags.prices,
  };
}
