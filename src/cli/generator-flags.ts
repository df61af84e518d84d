import { type Command, Option } from 'commander';
import { type ZodType, z } from 'zod';
import type { DataGenerator, GeneratorFlagMeta } from '../generation/index.js';
import { describeObjectSchema } from '../spec/describe-object-schema.js';
import { PlanValidationError } from '../spec/errors.js';
import { zodIssueText } from '../spec/zod-issue-text.js';

/** One flag of a generator: its key in the flag schema, spelling, value name, help and whether it repeats. */
export type GeneratorFlag = { key: string; flag: string; value?: string; help: string; repeatable: boolean };

/** The `.meta({ flag, value })` of a field, looking through default, optional and pipe wrappers. */
function flagMetaOf(field: ZodType): GeneratorFlagMeta {
  let current: ZodType | undefined = field;
  const found: GeneratorFlagMeta = {};
  while (current !== undefined) {
    const meta = z.globalRegistry.get(current) as GeneratorFlagMeta | undefined;
    found.flag ??= meta?.flag;
    found.value ??= meta?.value;
    if (current instanceof z.ZodDefault || current instanceof z.ZodOptional) current = current.unwrap() as ZodType;
    else if (current instanceof z.ZodPipe) current = current.in as ZodType;
    else current = undefined;
  }
  return found;
}

const kebab = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/**
 * The flags of a generator, from its flag schema alone: `--<kebab-case key>` (or the field's
 * `flag`), `<value>` (or its `value`; none for a boolean), its description with the default, and
 * repeatable for list fields.
 */
export function generatorFlags(generator: DataGenerator): GeneratorFlag[] {
  const shape = generator.flags.shape as Record<string, ZodType>;
  return describeObjectSchema(generator.flags).map((doc) => {
    const field = shape[doc.key];
    const meta = field === undefined ? {} : flagMetaOf(field);
    const boolean = doc.type === 'boolean';
    const numeric = /integer|number/.test(doc.type);
    const value = boolean ? undefined : (meta.value ?? (numeric ? '<n>' : '<value>'));
    const help = `${doc.description ?? doc.key}${doc.default === undefined ? '' : ` (default ${doc.default})`}`;
    return {
      key: doc.key,
      flag: meta.flag ?? `--${kebab(doc.key)}`,
      ...(value === undefined ? {} : { value }),
      help,
      repeatable: doc.type.startsWith('list of'),
    };
  });
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Declares a generator's flags on its commander command. */
export function addGeneratorFlags({ command, flags }: { command: Command; flags: GeneratorFlag[] }): Command {
  for (const entry of flags) {
    const option = new Option(`${entry.flag}${entry.value === undefined ? '' : ` ${entry.value}`}`, entry.help);
    if (entry.repeatable) option.argParser(collect);
    command.addOption(option);
  }
  return command;
}

/**
 * The generator flags given on the command line, validated by the generator's schema (numbers
 * coerce from text, defaults fill in). Problems are one `PlanValidationError` naming each flag.
 */
export function parseGeneratorFlags({
  generator,
  flags,
  command,
}: {
  generator: DataGenerator;
  flags: GeneratorFlag[];
  command: Command;
}): Record<string, unknown> {
  const given: Record<string, unknown> = {};
  const options = command.opts();
  for (const entry of flags) {
    const attribute = new Option(entry.flag).attributeName();
    if (command.getOptionValueSource(attribute) === 'cli') given[entry.key] = options[attribute];
  }
  const parsed = generator.flags.safeParse(given);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const spelling = new Map(flags.map((entry) => [entry.key, entry.flag]));
  const problems = parsed.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? '');
    const flag = spelling.get(key) ?? (key || 'flags');
    const message = zodIssueText({ issue, input: given });
    // Messages written as "expects …" read as one sentence after the flag.
    return message.startsWith('expects ') ? `${flag} ${message}` : `${flag}: ${message}`;
  });
  throw new PlanValidationError(problems.join('; '));
}
