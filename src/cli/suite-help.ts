import { Help, Option } from 'commander';
import { describeObjectSchema, type SchemaFieldDoc } from '../spec/describe-object-schema.js';
import { loadedSuite, suiteRegistry } from '../suites/registry.js';
import type { Suite } from '../suites/suite.js';

/** One suite option as `list options` and `run <suite> --help` print it. */
export type SuiteOptionDoc = SchemaFieldDoc & {
  /** The suite flag that is sugar for `--set <key>=…`, if any (e.g. `--tier`). */
  flag?: string;
};

/** Every option of a suite, from its zod schema, with the flag that sets it. */
export function suiteOptionDocs(suite: Suite): SuiteOptionDoc[] {
  return describeObjectSchema(suite.options).map((field) => {
    const flag = suite.flags?.find((candidate) => candidate.key === field.key)?.flag;
    return flag === undefined ? field : { ...field, flag };
  });
}

/** `string, one of a, b; default a` — the type line of an option. */
function typeLine(option: SuiteOptionDoc): string {
  const parts = [option.values === undefined ? option.type : `${option.type}, one of ${option.values.join(', ')}`];
  if (option.default !== undefined) parts.push(`default ${option.default === '' ? '(empty)' : option.default}`);
  else if (option.required) parts.push('required');
  return parts.join('; ');
}

/**
 * The options of one suite as an indented block: per option its key (and flag), type, allowed
 * values, default and meaning. Everything comes from the schema and the suite's flag table.
 */
export function formatSuiteOptions(suite: Suite): string {
  const options = suiteOptionDocs(suite);
  if (options.length === 0) return `  (suite ${suite.id} has no options)\n`;
  const names = options.map((option) => (option.flag === undefined ? option.key : `${option.key} (${option.flag})`));
  const width = Math.max(...names.map((name) => name.length));
  const indent = ' '.repeat(width + 4);
  return options
    .map((option, index) => {
      const head = `  ${names[index]!.padEnd(width)}  ${typeLine(option)}`;
      return option.description === undefined ? `${head}\n` : `${head}\n${indent}${option.description}\n`;
    })
    .join('');
}

/** The presets of one suite, one line each (`--preset <id>`); empty when it has none. */
export function formatSuitePresets(suite: Suite): string {
  const presets = suite.presets ?? [];
  if (presets.length === 0) return '';
  const width = Math.max(...presets.map((preset) => preset.id.length));
  return presets
    .map((preset) => {
      const settings = [
        ...Object.entries(preset.options).map(([key, value]) => `--set ${key}=${String(value)}`),
        ...(preset.models ?? []).map((binding) => `--model ${binding.role}=${binding.spec}`),
      ];
      return `  ${preset.id.padEnd(width)}  ${preset.description}\n  ${' '.repeat(width)}  = ${settings.join(' ')}\n`;
    })
    .join('');
}

/** The help `confidant run <suite> --help` appends: the suite's options, flags and presets. */
export function suiteRunHelp(suite: Suite): string {
  const presets = formatSuitePresets(suite);
  return [
    '',
    `Options of suite ${suite.id} (--set <key>=<value>; the flag in brackets is the same setting):`,
    formatSuiteOptions(suite).trimEnd(),
    ...(presets === '' ? [] : ['', `Presets of ${suite.id} (--preset <id>):`, presets.trimEnd()]),
    '',
    `Metrics: confidant list metrics ${suite.id}`,
  ].join('\n');
}

/**
 * The text after `confidant run --help`: the named suite's options when the arguments name one
 * (`run pac --help`), otherwise where to find them. Suite flags mean different things in
 * different suites (`--split`), so their meaning is shown per suite.
 */
export function runHelpAfter(args: readonly string[]): string {
  const suite = namedSuite(args);
  if (suite !== undefined) return suiteRunHelp(suite);
  return [
    '',
    'Suite flags (--tier, --split, …) are sugar for --set <key>=<value>, and their meaning depends on the suite:',
    `  confidant run <suite> --help     the suite's options, flags and presets (${suiteRegistry.map((each) => each.id).join(', ')})`,
    '  confidant list options <suite>   the same list of options',
    '  confidant list presets           ready-made option sets (--preset <id>)',
  ].join('\n');
}

/**
 * The suite the help arguments name (`run pac --help`), if any. Help is drawn synchronously, so
 * `runCli` loads the suites the command line names before parsing (`loadNamedSuites`).
 */
function namedSuite(args: readonly string[]): Suite | undefined {
  const entry = suiteRegistry.find((candidate) => args.includes(candidate.id));
  if (entry === undefined) return undefined;
  const suite = loadedSuite(entry.id);
  if (suite === undefined) throw new Error(`suite '${entry.id}' is named on the command line but was not loaded`);
  return suite;
}

/**
 * Help settings for `run`: when the arguments name a suite, the other suites' flags are hidden
 * and the suite's own flags are described by its schema, so `confidant run pac --help` shows
 * what `--split` means in pac.
 */
export const runHelpConfiguration: Partial<Help> = {
  visibleOptions(this: Help, cmd): Option[] {
    const options = Help.prototype.visibleOptions.call(this, cmd);
    const suite = namedSuite(cmd.args);
    if (suite === undefined) return options;
    const docs = suiteOptionDocs(suite);
    const suiteFlags = new Set(suiteRegistry.flatMap((each) => (each.flags ?? []).map((flag) => flag.flag)));
    return options.flatMap((option) => {
      if (option.long === undefined || !suiteFlags.has(option.long)) return [option];
      const doc = docs.find((candidate) => candidate.flag === option.long);
      if (doc === undefined) return [];
      return [new Option(option.flags, `${doc.description ?? typeLine(doc)} (same as --set ${doc.key}=…)`)];
    });
  },
};

/**
 * The help of a suite flag declared once for every suite that has it: what it sets, from the
 * registry entry (no suite is loaded); generic when several suites share the flag.
 */
export function suiteFlagHelp({ flag, key, suites }: { flag: string; key: string; suites: readonly string[] }): string {
  const only = suites.length === 1 ? suiteRegistry.find((suite) => suite.id === suites[0]) : undefined;
  const meaning = only?.flags.find((candidate) => candidate.key === key);
  if (only !== undefined && meaning !== undefined) {
    return `${only.id}: ${meaning.description} (same as --set ${key}=…)`;
  }
  return `same as --set ${key}=… in ${suites.join(', ')}; what ${flag} means differs per suite: confidant run <suite> --help`;
}
