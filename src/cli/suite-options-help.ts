import { describeObjectSchema, type SchemaFieldDoc } from '../spec/describe-object-schema.js';
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
export function typeLine(option: SuiteOptionDoc): string {
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
