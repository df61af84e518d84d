import { parseRoleBinding } from '../models/parse-model-spec.js';
import { PlanValidationError } from '../spec/errors.js';
import { type RunPlan, runPlanSchema } from '../spec/run-plan.js';
import { zodIssueText } from '../spec/zod-issue-text.js';
import type { Suite } from '../suites/suite.js';
import { mergeFlags } from './flag-schema.js';
import { nestModelSettings, secondsToMs } from './parse-assignments.js';
import { type RunFlagValues, runFlagSchema } from './run-flags.js';

/** The `role=spec` texts of a side's `--model` and `--grid` values (grids already expanded). */
function bindingTexts(side: Record<string, unknown>): string[] {
  return [side.model, side.grid].flatMap((value) => (Array.isArray(value) ? value.map(String) : []));
}

/**
 * Combines a config file's flag values with the command line's (see `MergeRule`): scalars and
 * `--defense` / `--sample-ids` are replaced by the command line; `--set`, `--model-setting` and
 * `--price` merge key by key (the command line wins a key); `--model` and `--grid` bindings merge
 * by role: every role the command line binds takes the command line's bindings only, every other
 * role keeps the config's. The merged bindings are returned as `model` (config's first, then the
 * command line's, each in its own order).
 */
export function mergeRunFlags({ config, cli }: { config: RunFlagValues; cli: RunFlagValues }): RunFlagValues {
  return mergeFlags({
    schema: runFlagSchema,
    config,
    cli,
    mergeBindings: (sides) => {
      const fromCli = bindingTexts(sides.cli);
      const cliRoles = new Set(fromCli.map((text) => parseRoleBinding(text).role));
      const kept = bindingTexts(sides.config).filter((text) => !cliRoles.has(parseRoleBinding(text).role));
      const model = [...kept, ...fromCli];
      return model.length === 0 ? {} : { model };
    },
  });
}

/**
 * Builds the run plan of `suite` from merged flag values (see `mergeRunFlags`) and the suite
 * flags given on the command line (`--tier 3`), which win over `--set` and the config's options.
 * The result is checked against `runPlanSchema`, so an impossible plan is a user error.
 */
export function buildPlan({
  suite,
  flags,
  suiteFlags = {},
}: {
  suite: Suite;
  flags: RunFlagValues;
  suiteFlags?: Record<string, string>;
}): RunPlan {
  const plan = {
    suite: suite.id,
    suiteOptions: { ...flags.set, ...suiteFlags },
    ...(flags.fidelity === undefined ? {} : { fidelity: flags.fidelity }),
    models: [...(flags.model ?? []), ...(flags.grid ?? [])].map((text) => parseRoleBinding(text)),
    modelSettings: nestModelSettings(flags.modelSetting ?? {}),
    defenses: flags.defense ?? [],
    epochs: flags.epochs,
    limit: flags.limit,
    sampleIds: flags.sampleIds,
    seed: flags.seed,
    concurrency: flags.concurrency,
    maxConnections: flags.maxConnections,
    maxRetries: flags.maxRetries,
    requestTimeoutMs: secondsToMs(flags.requestTimeout),
    maxRetryAfterMs: secondsToMs(flags.maxRetryAfter),
    cache: flags.cache ?? true,
    maxCostUsd: flags.maxCost,
    maxTokens: flags.maxTokens,
    failFast: flags.failFast,
    maxErrorRate: flags.maxErrorRate,
    shard: flags.shard,
    ...(flags.prices === undefined ? {} : { prices: flags.prices }),
  };
  const parsed = runPlanSchema.safeParse(plan);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${zodIssueText({ issue, input: plan })}`,
    );
    throw new PlanValidationError(`invalid run settings: ${problems.join('; ')}`);
  }
  return parsed.data;
}
