import type { Suite } from './suite.js';

/** A suite flag as `confidant run --help` shows it before the suite is loaded. */
export type SuiteFlagEntry = {
  /** e.g. `--tier`. */
  flag: string;
  /** The suite option it sets (`--set <key>=…`). */
  key: string;
  /** The option's one-line description; the suite's options schema reads it from here (`flagDescription`). */
  description: string;
};

/**
 * What the registry knows of a suite without loading its code: its id and flags (enough for
 * `--help` and for parsing the command line) and how to load it. The suite module is imported on
 * first use, so a run loads only its own suite and `--help` loads none. The registry test checks
 * each entry against its loaded suite (id, flags and their descriptions).
 */
export type SuiteEntry = {
  id: string;
  /** The suite's `flags`, in its order, each with its option's description. */
  flags: readonly SuiteFlagEntry[];
  /** Imports the suite's module; `loadSuite` keeps the result. */
  load: () => Promise<Suite>;
};

/**
 * The description of `entry`'s flag for option `key`, for the suite's options schema: the entry
 * (loaded for `--help` without the suite) holds the one copy of each flag's text.
 */
export function flagDescription(entry: SuiteEntry, key: string): string {
  const flag = entry.flags.find((candidate) => candidate.key === key);
  if (flag === undefined) throw new TypeError(`suite '${entry.id}' has no flag for option '${key}'`);
  return flag.description;
}
