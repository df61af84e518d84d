import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseRoleBinding } from '../models/index.js';
import { parseShard } from '../runner/index.js';
import { PlanValidationError } from '../spec/errors.js';
import { type RunPlan, runPlanSchema } from '../spec/run-plan.js';
import type { Suite } from '../suites/suite.js';
import {
  parseAssignment,
  parseModelSettings,
  parseNonNegativeNumber,
  parsePositiveInteger,
} from './parse-assignments.js';

/** The `run` flags as commander hands them over (strings, lists, booleans). */
export type RunFlags = {
  model?: string[];
  /** `--grid role=spec1,spec2`: sugar for one `--model role=…` per spec (a seat model grid). */
  grid?: string[];
  modelSetting?: string[];
  defense?: string[];
  set?: string[];
  epochs?: string;
  limit?: string;
  sampleIds?: string;
  seed?: string;
  shard?: string;
  concurrency?: string;
  maxConnections?: string;
  maxRetries?: string;
  cache?: boolean;
  maxCost?: string;
  maxTokens?: string;
  /** Suite flags (e.g. `tier`), by option key. */
  suiteFlags?: Record<string, string>;
};

/** `--config file.json`: the same flags as JSON (lists as arrays, `set` as an object). */
export const configFileSchema = z
  .object({
    model: z.union([z.string(), z.array(z.string())]),
    grid: z.union([z.string(), z.array(z.string())]),
    modelSetting: z.array(z.string()),
    defense: z.union([z.string(), z.array(z.string())]),
    set: z.record(z.string(), z.unknown()),
    epochs: z.number(),
    limit: z.number(),
    sampleIds: z.union([z.string(), z.array(z.string())]),
    seed: z.number(),
    shard: z.string(),
    concurrency: z.number(),
    maxConnections: z.number(),
    maxRetries: z.number(),
    cache: z.boolean(),
    maxCost: z.number(),
    maxTokens: z.number(),
    out: z.string(),
    dataDir: z.string(),
    cacheDir: z.string(),
  })
  .partial()
  .strict();
export type ConfigFile = z.infer<typeof configFileSchema>;

/** Reads and validates a `--config` file; errors name the file and the field. */
export function readConfigFile(path: string): ConfigFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new PlanValidationError(
      `cannot read --config ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const parsed = configFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new PlanValidationError(`invalid --config ${path}: ${problems.join('; ')}`);
  }
  return parsed.data;
}

const asList = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * Expands `--grid role=spec1,spec2` into `role=spec1`, `role=spec2`. A comma-separated part that
 * starts with `http://` or `https://` continues the previous spec's base-URL list.
 */
export function expandGrid(text: string): string[] {
  const equals = text.indexOf('=');
  const key = text.slice(0, Math.max(equals, 0)).trim();
  const specs: string[] = [];
  for (const part of (equals <= 0 ? '' : text.slice(equals + 1)).split(',')) {
    const trimmed = part.trim();
    if (trimmed === '') continue;
    if (/^https?:\/\//.test(trimmed) && specs.length > 0) specs[specs.length - 1] += `,${trimmed}`;
    else specs.push(trimmed);
  }
  if (specs.length === 0) {
    throw new PlanValidationError(
      `--grid expects role=spec1,spec2, got '${text}' (for example --grid agent-a=openai:gpt-5.1)`,
    );
  }
  return specs.map((spec) => `${key}=${spec}`);
}

/**
 * Builds the run plan from the suite, the command-line flags and an optional config file.
 * Flags given on the command line win over the config file; list flags (`--model`,
 * `--defense`) given on the command line replace the config's lists.
 */
export function buildPlan({
  suite,
  flags,
  config = {},
}: {
  suite: Suite;
  flags: RunFlags;
  config?: ConfigFile;
}): RunPlan {
  const modelArgs = [
    ...(flags.model?.length ? flags.model : asList(config.model)),
    ...(flags.grid?.length ? flags.grid : asList(config.grid)).flatMap(expandGrid),
  ];
  const suiteOptions: Record<string, unknown> = { ...config.set };
  for (const text of flags.set ?? []) {
    const { key, value } = parseAssignment({ text, flag: '--set' });
    suiteOptions[key] = value;
  }
  for (const [key, value] of Object.entries(flags.suiteFlags ?? {})) suiteOptions[key] = value;
  const number = (flag: string, text: string | undefined, fallback: number | undefined, positive = true) =>
    text === undefined
      ? fallback
      : positive
        ? parsePositiveInteger({ text, flag })
        : parseNonNegativeNumber({ text, flag });
  const sampleIds = flags.sampleIds
    ? flags.sampleIds.split(',').map((id) => id.trim())
    : config.sampleIds
      ? asList(config.sampleIds)
      : undefined;
  const shardText = flags.shard ?? config.shard;
  const plan = {
    suite: suite.id,
    suiteOptions,
    models: modelArgs.map((arg) => parseRoleBinding(arg)),
    modelSettings: parseModelSettings([...(config.modelSetting ?? []), ...(flags.modelSetting ?? [])]),
    defenses: flags.defense?.length ? flags.defense : asList(config.defense),
    epochs: number('--epochs', flags.epochs, config.epochs),
    limit: number('--limit', flags.limit, config.limit),
    sampleIds,
    seed: number('--seed', flags.seed, config.seed, false),
    concurrency: number('--concurrency', flags.concurrency, config.concurrency),
    maxConnections: number('--max-connections', flags.maxConnections, config.maxConnections),
    maxRetries: number('--max-retries', flags.maxRetries, config.maxRetries, false),
    cache: flags.cache === false ? false : (config.cache ?? true),
    maxCostUsd: number('--max-cost', flags.maxCost, config.maxCost, false),
    maxTokens: number('--max-tokens', flags.maxTokens, config.maxTokens),
    shard: shardText ? parseShard(shardText) : undefined,
  };
  const parsed = runPlanSchema.safeParse(plan);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new PlanValidationError(`invalid run settings: ${problems.join('; ')}`);
  }
  return parsed.data;
}
