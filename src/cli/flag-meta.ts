import { type Command, Option } from 'commander';

// What a flag says about itself, apart from its zod type (`flag-schema.ts`): commands are declared
// and their help drawn from these tables without loading zod.

/** The commands that take flags from a flag schema. */
export type FlagCommand = 'run' | 'resume' | 'generate' | 'rescore';

/**
 * How a value given on the command line combines with the config file's:
 * - `replace`: the command line's value, else the config's (scalars, and ordered lists such as
 *   `--defense`, whose order is their meaning);
 * - `by-key`: both are kept and the command line wins key by key (`--set` option keys,
 *   `--model-setting role.key`, `--price` models);
 * - `by-role`: model bindings; the command line's bindings of a role replace the config's bindings
 *   of that role and every other role keeps its config bindings (`--model`, `--grid` together).
 */
export type MergeRule = 'replace' | 'by-key' | 'by-role';

/** What a flag schema field says about its flag, beside its zod type (the config file's form). */
export type FlagMeta = {
  /** Long spelling, e.g. `--max-cost`; `--no-<name>` for a switch that turns a default-on setting off. */
  flag: string;
  /** Short spelling, e.g. `-m`. */
  short?: string;
  /** Value name shown in help, e.g. `<usd>`; absent for a switch. */
  value?: string;
  /** One line of help. */
  description: string;
  /** Per-command help where it differs from `description`. */
  help?: Partial<Record<FlagCommand, string>>;
  /** Per-command value name where it differs from `value`. */
  valueFor?: Partial<Record<FlagCommand, string>>;
  /**
   * Commands that do not take this flag but declare it (hidden) only to refuse it, with why
   * (e.g. `resume` refuses `--epochs`: it defines what the run measures).
   */
  refuse?: Partial<Record<FlagCommand, string>>;
  /** The flag may be given several times; the config file takes a string or an array. */
  repeatable?: boolean;
  /**
   * Turns one command-line value (one item of a repeatable flag) into the config file's form,
   * throwing a user error that names the flag (e.g. `'3'` → `3`). Default: the text itself.
   */
  parse?: (options: { text: string; flag: string }) => unknown;
  /** Default `replace`. */
  merge?: MergeRule;
  /** The commands that take this flag. */
  commands: readonly FlagCommand[];
  /** `false` for command-line-only flags (`--config`, `--dry-run`); default `true`. */
  inConfig?: boolean;
};

/** Flag metadata by key, in declaration order (e.g. `runFlagTable`). */
export type FlagTable = Readonly<Record<string, FlagMeta>>;

/** The entries of `table` in declaration order; `command` keeps those that command takes. */
function tableEntries(table: FlagTable, command?: FlagCommand): FlagMeta[] {
  return Object.values(table).filter((meta) => command === undefined || meta.commands.includes(command));
}

function spellingOf(meta: FlagMeta, name?: FlagCommand): string {
  const value = (name === undefined ? undefined : meta.valueFor?.[name]) ?? meta.value;
  return `${meta.short === undefined ? '' : `${meta.short}, `}${meta.flag}${value === undefined ? '' : ` ${value}`}`;
}

/** The commander attribute of a flag as command `name` spells it (e.g. `--max-cost` → `maxCost`). */
export function flagAttribute(meta: FlagMeta, name?: FlagCommand): string {
  return new Option(spellingOf(meta, name)).attributeName();
}

/** A flag a command declares only to refuse it: its spelling, commander attribute and why. */
export type RefusedFlag = { flag: string; key: string; why: string };

/** The flags of `table` that command `name` refuses (see `FlagMeta.refuse`), in table order. */
export function refusedFlags(table: FlagTable, name: FlagCommand): RefusedFlag[] {
  return tableEntries(table).flatMap((meta) => {
    const why = meta.refuse?.[name];
    return why === undefined ? [] : [{ flag: meta.flag, key: flagAttribute(meta), why }];
  });
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * Declares the table's flags of `name` on a commander command, in table order, and the flags it
 * refuses as hidden options.
 */
export function addFlagOptions({
  command,
  flags,
  name,
}: {
  command: Command;
  flags: FlagTable;
  name: FlagCommand;
}): Command {
  for (const meta of tableEntries(flags, name)) {
    const option = new Option(spellingOf(meta, name), meta.help?.[name] ?? meta.description);
    if (meta.repeatable) option.argParser(collect);
    command.addOption(option);
  }
  // Refused flags parse like the real ones (so the refusal can name them) but stay out of the help.
  for (const meta of tableEntries(flags)) {
    if (meta.refuse?.[name] === undefined) continue;
    const option = new Option(spellingOf(meta)).hideHelp();
    if (meta.repeatable) option.argParser(collect);
    command.addOption(option);
  }
  return command;
}
