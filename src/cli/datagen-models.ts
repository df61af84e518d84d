import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { parseRoleBinding, type ResolvedModelRoles, resolveModelRoles } from '../models/index.js';
import type { EmitEvent } from '../spec/chat-model.js';
import { PlanValidationError } from '../spec/errors.js';
import type { TranscriptEvent } from '../spec/event.js';
import type { RoleBinding } from '../spec/model-spec.js';
import type { CliIo } from './cli-io.js';
import { parseModelSettings, parseNonNegativeNumber, parsePositiveInteger } from './parse-assignments.js';
import { modelSpecWarnings } from './plan-warnings.js';
import { runPreflight } from './preflight.js';
import { resolveCacheDir } from './prepare-run.js';

/** The model flags every `confidant generate <dataset>` command takes. */
export type DatagenFlags = {
  model?: string[];
  modelSetting?: string[];
  maxConnections?: string;
  maxRetries?: string;
  cache?: boolean;
  cacheDir?: string;
  maxCost?: string;
  maxTokens?: string;
  /** `false` for `--no-preflight`. */
  preflight?: boolean;
};

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
 * and budgets as a run, after the same pre-flight check of its endpoints (unless `--no-preflight`).
 */
export async function resolveDatagenModels({
  io,
  flags,
  command,
}: {
  io: CliIo;
  flags: DatagenFlags;
  command: string;
}): Promise<ResolvedModelRoles> {
  const integer = (text: string | undefined, flag: string) =>
    text === undefined ? undefined : parsePositiveInteger({ text, flag });
  const number = (text: string | undefined, flag: string) =>
    text === undefined ? undefined : parseNonNegativeNumber({ text, flag });
  const maxRetries = number(flags.maxRetries, '--max-retries');
  const maxCost = number(flags.maxCost, '--max-cost');
  const maxTokens = integer(flags.maxTokens, '--max-tokens');
  const maxConnections = integer(flags.maxConnections, '--max-connections');
  const bindings = datagenBindings({ models: flags.model ?? [], command });
  for (const warning of modelSpecWarnings(bindings)) io.stderr(`warning: ${warning}\n`);
  if (flags.preflight !== false) {
    await runPreflight({ io, targets: bindings.map((binding) => ({ ...binding, purpose: 'chat' as const })) });
  }
  return resolveModelRoles({
    bindings,
    settings: datagenSettings(parseModelSettings(flags.modelSetting ?? [])),
    env: io.env,
    cacheDir: resolveCacheDir({ flag: flags.cacheDir, env: io.env, home: io.home }),
    cacheReads: flags.cache !== false,
    ...(maxRetries === undefined ? {} : { maxRetries }),
    ...(maxConnections === undefined ? {} : { maxConnections }),
    ...(maxCost === undefined ? {} : { maxCostUsd: maxCost }),
    ...(maxTokens === undefined ? {} : { maxTokens }),
  });
}

/** Appends every model-call event to `<dir>/calls.jsonl` (requests and replies; never keys). */
export function datagenCallLog(dir: string): EmitEvent {
  mkdirSync(dir, { recursive: true });
  const session = new Date().toISOString();
  let count = 0;
  return (event) => {
    count += 1;
    const stored = { ...event, id: `${session}#${count}`, time: new Date().toISOString() } as TranscriptEvent;
    appendFileSync(join(dir, 'calls.jsonl'), `${JSON.stringify(stored)}\n`, 'utf8');
    return stored;
  };
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Declares the model flags of a generate subcommand (see `DatagenFlags`). */
export function addDatagenOptions(command: Command): Command {
  return command
    .option(
      '-m, --model <spec>',
      'datagen model: datagen=<provider:model> (generator= or a bare spec also work)',
      collect,
    )
    .option('--model-setting <role.key=value>', 'sampling setting, e.g. datagen.temperature=0.8 (repeatable)', collect)
    .option('--max-connections <n>', 'concurrent requests per endpoint (default 8)')
    .option('--max-retries <n>', 'retries per model call (default 5)')
    .option('--no-cache', 'do not read cached responses (new responses are still cached)')
    .option('--cache-dir <dir>', 'response cache directory')
    .option('--max-cost <usd>', 'stop cleanly once this many US dollars are spent')
    .option('--max-tokens <n>', 'stop cleanly once this many tokens are used')
    .option('--no-preflight', 'skip the check that the datagen endpoint answers before the first call');
}
