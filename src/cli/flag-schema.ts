import type { Command } from 'commander';
import { z } from 'zod';
import { ConfidantError, PlanValidationError } from '../spec/errors.js';
import { zodIssueText } from '../spec/zod-issue-text.js';
import { type FlagCommand, type FlagMeta, flagAttribute } from './flag-meta.js';

export type { FlagCommand, FlagMeta, MergeRule } from './flag-meta.js';

/** The registry that holds each flag schema field's {@link FlagMeta}. */
export const flagRegistry = z.registry<FlagMeta>();

/** Declares one flag: its zod type (the value as a config file gives it) and its metadata. */
export function flag<T extends z.ZodType>(schema: T, meta: FlagMeta): T {
  flagRegistry.add(schema, meta);
  return schema;
}

/** A flag schema: one zod object whose every field is declared with {@link flag}. */
export type FlagSchema = z.ZodObject<z.ZodRawShape>;

/** The values of a flag schema that were given (by the command line, a config file, or both). */
export type FlagValues<S extends FlagSchema> = Partial<z.output<S>>;

/** One field of a flag schema with its key and metadata. */
export type FlagEntry = { key: string; field: z.core.$ZodType; meta: FlagMeta };

/** The fields of `schema`, in declaration order; `command` keeps those that command takes. */
export function flagEntries(schema: FlagSchema, command?: FlagCommand): FlagEntry[] {
  return Object.entries(schema.shape).flatMap(([key, field]) => {
    const meta = flagRegistry.get(field);
    if (meta === undefined) throw new TypeError(`flag schema field '${key}' has no flag metadata`);
    return command === undefined || meta.commands.includes(command) ? [{ key, field, meta }] : [];
  });
}

/**
 * `zod` issues as one line, `<path>: <message>; …`, each path under `prefix` (a key or flag) when
 * given; with the parsed `input`, a field that was never given reads `required, …` (`zodIssueText`).
 */
export function formatIssues({
  issues,
  prefix,
  input,
}: {
  issues: readonly z.core.$ZodIssue[];
  prefix?: string;
  input?: unknown;
}): string {
  return issues
    .map((issue) => {
      const path = [...(prefix === undefined ? [] : [prefix]), ...issue.path.map(String)].join('.');
      return `${path || '(root)'}: ${input === undefined ? issue.message : zodIssueText({ issue, input })}`;
    })
    .join('; ');
}

/**
 * Reads the flags of `name` that were given on the command line (commander's option values
 * whose source is `cli`): each value is parsed by its field's `parse` (errors name the flag)
 * and then checked by its zod type, so the result has the same form as a config file's.
 */
export function flagsFromCommandLine<S extends FlagSchema>({
  schema,
  name,
  command,
}: {
  schema: S;
  name: FlagCommand;
  command: Command;
}): FlagValues<S> {
  const options = command.opts();
  const values: Record<string, unknown> = {};
  for (const { key, field, meta } of flagEntries(schema, name)) {
    const attribute = flagAttribute(meta, name);
    if (command.getOptionValueSource(attribute) !== 'cli') continue;
    const raw: unknown = options[attribute];
    const parse = (text: unknown) =>
      typeof text === 'string' && meta.parse ? meta.parse({ text, flag: meta.flag }) : text;
    const value = Array.isArray(raw) ? raw.map(parse) : parse(raw);
    const checked = z.safeParse(field, value);
    if (!checked.success) {
      throw new PlanValidationError(formatIssues({ issues: checked.error.issues, prefix: meta.flag, input: value }));
    }
    values[key] = checked.data;
  }
  return values as FlagValues<S>;
}

/**
 * Validates the flag keys of a config file against the flags of `name` (other keys are the
 * caller's: suite options, or an error). Problems name the key and are one
 * `PlanValidationError` prefixed by `where`.
 */
export function flagsFromConfig<S extends FlagSchema>({
  schema,
  name,
  raw,
  where,
}: {
  schema: S;
  name: FlagCommand;
  raw: Record<string, unknown>;
  where: string;
}): FlagValues<S> {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const { key, field, meta } of flagEntries(schema, name)) {
    if (raw[key] === undefined || meta.inConfig === false) continue;
    let checked: ReturnType<typeof z.safeParse>;
    try {
      checked = z.safeParse(field, raw[key]);
    } catch (error) {
      // A field's transform may throw a user error (e.g. a malformed model spec inside a list).
      if (!ConfidantError.isInstance(error) || !error.userError) throw error;
      problems.push(`${key}: ${error.message}`);
      continue;
    }
    if (checked.success) values[key] = checked.data;
    else problems.push(formatIssues({ issues: checked.error.issues, prefix: key, input: raw[key] }));
  }
  if (problems.length > 0) throw new PlanValidationError(`${where}: ${problems.join('; ')}`);
  return values as FlagValues<S>;
}

/** The config keys of command `name`: its flags minus the command-line-only ones. */
export function configKeys(schema: FlagSchema, name: FlagCommand): string[] {
  return flagEntries(schema, name)
    .filter(({ meta }) => meta.inConfig !== false)
    .map(({ key }) => key);
}

/**
 * Combines a config file's values with the command line's, field by field, by each field's
 * {@link MergeRule}. `by-key` fields hold records (merged one level deep, the command line's
 * entries winning). `by-role` fields are merged by `mergeBindings`, which receives the `by-role`
 * values of each side (so `--model` and `--grid` are merged as one list of bindings) and returns
 * the merged values of those fields.
 */
export function mergeFlags<S extends FlagSchema>({
  schema,
  config,
  cli,
  mergeBindings,
}: {
  schema: S;
  config: FlagValues<S>;
  cli: FlagValues<S>;
  mergeBindings: (sides: { config: Record<string, unknown>; cli: Record<string, unknown> }) => Record<string, unknown>;
}): FlagValues<S> {
  const merged: Record<string, unknown> = {};
  const fromConfig = config as Record<string, unknown>;
  const fromCli = cli as Record<string, unknown>;
  const byRole = { config: {} as Record<string, unknown>, cli: {} as Record<string, unknown> };
  for (const { key, meta } of flagEntries(schema)) {
    const a = fromConfig[key];
    const b = fromCli[key];
    const rule = meta.merge ?? 'replace';
    if (rule === 'by-role') {
      if (a !== undefined) byRole.config[key] = a;
      if (b !== undefined) byRole.cli[key] = b;
      continue;
    }
    const value = rule === 'by-key' && isRecord(a) && isRecord(b) ? { ...a, ...b } : b !== undefined ? b : a;
    if (value !== undefined) merged[key] = value;
  }
  Object.assign(merged, mergeBindings(byRole));
  return merged as FlagValues<S>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
