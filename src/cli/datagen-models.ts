import type { Command } from 'commander';
import { checkBudgetPrices, parseRoleBinding, type ResolvedModelRoles, resolveModelRoles } from '../models/index.js';
import { MODEL_ROLES } from '../runner/role-registry.js';
import { PlanValidationError } from '../spec/errors.js';
import type { RoleBinding } from '../spec/model-spec.js';
import type { CliIo } from './cli-io.js';
import { compatibleClientOption } from './compatible-client-option.js';
import { addFlagOptions } from './flag-meta.js';
import { flagsFromCommandLine } from './flag-schema.js';
import { nestModelSettings, secondsToMs } from './parse-assignments.js';
import { modelSpecWarnings } from './plan-warnings.js';
import { runPreflight } from './preflight.js';
import { resolveCacheDir } from './resolve-cache-dir.js';
import { runFlagTable } from './run-flag-table.js';
import { type RunFlagValues, runFlagSchema } from './run-flags.js';

/** The model flags every `confidant generate <dataset>` command takes (the `generate` flags of `runFlagSchema`). */
export type DatagenFlags = RunFlagValues;

/** Reads the model flags of a generate subcommand from its parsed command line. */
export function datagenFlagsOf(command: Command): DatagenFlags {
  return flagsFromCommandLine({ schema: runFlagSchema, name: 'generate', command });
}

/** The `--model` flags as datagen bindings: `generator=` and bare specs mean `datagen`. */
export function datagenBindings({ models, command }: { models: string[]; command: string }): RoleBinding[] {
  if (models.length === 0) {
    throw new PlanValidationError(`${command} needs a datagen model: add --model datagen=<provider:model>`);
  }
  return models.map((text) => {
    const binding = parseRoleBinding(text);
    const role = binding.role === 'agent' || binding.role === 'generator' ? 'datagen' : binding.role;
    if (role !== 'datagen') {
      throw new PlanValidationError(
        `${command} uses only the datagen role, not '${binding.role}': use --model datagen=<provider:model>`,
      );
    }
    return { role, spec: binding.spec };
  });
}

function datagenSettings(settings: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  const renamed: Record<string, Record<string, unknown>> = {};
  for (const [role, values] of Object.entries(settings)) {
    const target = role === 'generator' || role === 'agent' ? 'datagen' : role;
    renamed[target] = { ...renamed[target], ...values };
  }
  return renamed;
}

/**
 * Resolves the datagen model of a generate command with the same cache, retries, rate limits
 * and budgets as a run, after the same pre-flight check of its endpoints (unless `--no-preflight`);
 * returns the bindings and settings too, for the generation's run header.
 */
export async function resolveDatagenModels({
  io,
  flags,
  command,
}: {
  io: CliIo;
  flags: DatagenFlags;
  command: string;
}): Promise<{
  models: ResolvedModelRoles;
  bindings: RoleBinding[];
  settings: Record<string, Record<string, unknown>>;
}> {
  const bindings = datagenBindings({ models: flags.model ?? [], command });
  const settings = datagenSettings(nestModelSettings(flags.modelSetting ?? {}));
  checkBudgetPrices({ bindings, prices: flags.prices, maxCostUsd: flags.maxCost });
  for (const warning of modelSpecWarnings(bindings)) io.stderr(`warning: ${warning}\n`);
  if (flags.preflight !== false) {
    await runPreflight({ io, targets: bindings.map((binding) => ({ ...binding, purpose: 'chat' as const })) });
  }
  const models = await resolveModelRoles({
    roles: MODEL_ROLES,
    bindings,
    settings,
    env: io.env,
    ...compatibleClientOption(io.env),
    cacheDir: resolveCacheDir({ flag: flags.cacheDir, env: io.env, home: io.home }),
    cacheReads: flags.cache !== false,
    ...(flags.maxRetries === undefined ? {} : { maxRetries: flags.maxRetries }),
    ...(flags.requestTimeout === undefined ? {} : { timeoutMs: secondsToMs(flags.requestTimeout) }),
    ...(flags.maxRetryAfter === undefined ? {} : { maxRetryAfterMs: secondsToMs(flags.maxRetryAfter) }),
    ...(flags.maxConnections === undefined ? {} : { maxConnections: flags.maxConnections }),
    ...(flags.maxCost === undefined ? {} : { maxCostUsd: flags.maxCost }),
    ...(flags.maxTokens === undefined ? {} : { maxTokens: flags.maxTokens }),
    ...(flags.prices === undefined ? {} : { prices: flags.prices }),
  });
  return { models, bindings, settings };
}

/** Declares the model flags of a generate subcommand (see `DatagenFlags`). */
export function addDatagenOptions(command: Command): Command {
  return addFlagOptions({ command, flags: runFlagTable, name: 'generate' });
}
