import { readFileSync } from 'node:fs';
import { canonicalJson } from '../runner/plan-hash.js';
import { PlanValidationError } from '../spec/errors.js';
import { suiteOptionKeys } from '../suites/option-keys.js';
import type { Suite } from '../suites/suite.js';
import { configKeys, flagsFromConfig } from './flag-schema.js';
import { type RunFlagValues, runFlagSchema } from './run-flags.js';

/**
 * Reads and validates a `--config` file for a run of `suite`: a JSON object whose keys are the
 * `run` flags (camelCase: `model`, `maxCost`, `prices`, …; see `runFlagSchema`) and the suite's
 * options, either at the top level or under `set` (the same key in both places is an error).
 * Suite options are returned folded into `set` (`flags`), beside the file's `contents` as read (for
 * the run header). An unknown key is a user error that lists every valid key; other errors name the
 * file and the field.
 */
export function readConfigFile({ path, suite }: { path: string; suite: Suite }): {
  flags: RunFlagValues;
  contents: Record<string, unknown>;
} {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new PlanValidationError(
      `cannot read --config ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new PlanValidationError(`invalid --config ${path}: expected a JSON object of flags and suite options`);
  }
  const record = raw as Record<string, unknown>;
  return { flags: parseConfigObject({ raw: record, suite, where: `invalid --config ${path}` }), contents: record };
}

/**
 * Validates one config object (a `--config` file's, or a sweep cell's fragment) for a run of
 * `suite` and returns its flag values with the suite options folded into `set`. Problems are one
 * user error prefixed by `where`.
 */
export function parseConfigObject({
  raw: record,
  suite,
  where,
}: {
  raw: Record<string, unknown>;
  suite: Suite;
  where: string;
}): RunFlagValues {
  const flagKeys = configKeys(runFlagSchema, 'run');
  const optionKeys = (suiteOptionKeys(suite.options) ?? []).filter((key) => !flagKeys.includes(key));
  const unknown = Object.keys(record).filter((key) => !flagKeys.includes(key) && !optionKeys.includes(key));
  if (unknown.length > 0) {
    throw new PlanValidationError(
      `${where}: unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `'${key}'`).join(', ')}; ` +
        `a config file takes the run flags (${flagKeys.join(', ')}) and the options of suite ${suite.id} ` +
        `(${optionKeys.join(', ') || 'none'}), at the top level or under "set"`,
    );
  }
  const flags = flagsFromConfig({ schema: runFlagSchema, name: 'run', raw: record, where });
  const topLevel = Object.fromEntries(optionKeys.filter((key) => key in record).map((key) => [key, record[key]]));
  const set = flags.set ?? {};
  const twice = Object.keys(topLevel).filter(
    (key) => key in set && canonicalJson(set[key]) !== canonicalJson(topLevel[key]),
  );
  if (twice.length > 0) {
    throw new PlanValidationError(
      `${where}: ${twice.map((key) => `'${key}'`).join(', ')} given both at the top level and under "set" with different values; keep one`,
    );
  }
  const suiteOptions = { ...topLevel, ...set };
  return Object.keys(suiteOptions).length === 0 ? flags : { ...flags, set: suiteOptions };
}
