import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { ShardSpec } from '../runner/index.js';
import { expandSweep, planHash, sha256Hex } from '../runner/index.js';
import { ConfidantError, PlanValidationError } from '../spec/errors.js';
import type { RunPlan } from '../spec/run-plan.js';
import { type SweepCell, type SweepFile, sweepFileSchema } from '../spec/sweep-file.js';
import { loadSuite } from '../suites/registry.js';
import { buildPlan, mergeRunFlags } from './build-plan.js';
import { parseConfigObject } from './config-file.js';
import { formatIssues } from './flag-schema.js';
import type { RunFlagValues } from './run-flags.js';
import { withPreset } from './with-preset.js';

/** A sweep file as read: its path, text hash, parsed content and name. */
export type LoadedSweep = { path: string; sha256: string; sweep: SweepFile; name: string };

/**
 * Reads a sweep file (YAML, or JSON, which is YAML too) and checks it against `sweepFileSchema`;
 * an unreadable file or every schema problem is one user error naming the file.
 */
export function readSweepFile(path: string): LoadedSweep {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new PlanValidationError(
      `cannot read sweep file ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new PlanValidationError(
      `sweep file ${path} is not valid YAML or JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const parsed = sweepFileSchema.safeParse(raw);
  if (!parsed.success)
    throw new PlanValidationError(
      `invalid sweep file ${path}: ${formatIssues({ issues: parsed.error.issues, input: raw })}`,
    );
  return {
    path,
    sha256: sha256Hex(text),
    sweep: parsed.data,
    name: parsed.data.name ?? basename(path).replace(/\.(ya?ml|json)$/i, ''),
  };
}

/** Keys a cell cannot set: they belong to the sweep command, which applies them to every cell. */
const SWEEP_LEVEL_KEYS: Record<string, string> = {
  out: 'cells go under the sweep directory (`sweep run --out`)',
  shard: 'a sweep is sharded as a whole (`sweep run --shard i/n`)',
  config: 'a sweep file is its own config',
  cacheDir: 'cells share one cache (`sweep run --cache-dir`)',
  dryRun: 'use `sweep run --dry-run`',
};

/** One cell with the run plan its fragments make, and its own data directory when a fragment names one. */
export type PlannedCell = SweepCell & { suite: string; plan: RunPlan; planHash: string; dataDir?: string };

/**
 * Builds each cell's run plan: the suite named by `suite` in the cell's fragments (the last one
 * wins), every fragment checked like a `--config` file of that suite and merged with the same
 * rules as a config file and a command line (later axes win a key; model bindings by role), the
 * suite's preset laid beneath. Every cell's problems are collected and thrown as one user error.
 */
export async function planSweepCells({
  sweep,
  shard,
  baseDir,
}: {
  sweep: SweepFile;
  shard?: ShardSpec;
  /** Where a fragment's relative `dataDir` is resolved (the sweep file's folder). */
  baseDir: string;
}): Promise<PlannedCell[]> {
  const problems: string[] = [];
  const planned: PlannedCell[] = [];
  for (const cell of expandSweep(sweep)) {
    try {
      planned.push(await planCell({ cell, baseDir, ...(shard === undefined ? {} : { shard }) }));
    } catch (error) {
      if (!ConfidantError.isInstance(error) || !error.userError) throw error;
      problems.push(`cell ${cell.id}: ${error.message}`);
    }
  }
  if (problems.length > 0) {
    throw new PlanValidationError(`the sweep has ${problems.length} invalid cell(s):\n  ${problems.join('\n  ')}`);
  }
  return planned;
}

async function planCell({
  cell,
  shard,
  baseDir,
}: {
  cell: SweepCell;
  shard?: ShardSpec;
  baseDir: string;
}): Promise<PlannedCell> {
  let suiteId: string | undefined;
  let dataDir: string | undefined;
  for (const fragment of cell.fragments) {
    if (fragment.dataDir !== undefined) {
      if (typeof fragment.dataDir !== 'string') throw new PlanValidationError('`dataDir` must be a folder path');
      dataDir = resolve(baseDir, fragment.dataDir);
    }
    if (fragment.suite !== undefined) {
      if (typeof fragment.suite !== 'string') throw new PlanValidationError('`suite` must be a suite id');
      suiteId = fragment.suite;
    }
  }
  if (suiteId === undefined) {
    throw new PlanValidationError('no suite: set `suite` in the settings or in one axis value');
  }
  const suite = await loadSuite(suiteId);
  let flags: RunFlagValues = {};
  cell.fragments.forEach((fragment, index) => {
    const { suite: _suite, dataDir: _dataDir, ...rest } = fragment;
    for (const key of Object.keys(rest)) {
      const why = SWEEP_LEVEL_KEYS[key];
      if (why !== undefined) throw new PlanValidationError(`'${key}' cannot be set per cell: ${why}`);
    }
    const where = index === 0 ? 'settings' : `axis ${Object.keys(cell.labels)[index - 1]}`;
    flags = mergeRunFlags({ config: flags, cli: parseConfigObject({ raw: rest, suite, where }) });
  });
  const plan = buildPlan({
    suite,
    flags: withPreset({ suite, flags: shard === undefined ? flags : { ...flags, shard } }),
  });
  return { ...cell, suite: suite.id, plan, planHash: planHash(plan), ...(dataDir === undefined ? {} : { dataDir }) };
}
