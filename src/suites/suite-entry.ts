import type { Suite } from './suite.js';

/** A suite flag as `confidant run --help` shows it before the suite is loaded. */
export type SuiteFlagEntry = {
  /** e.g. `--tier`. */
  flag: string;
  /** The suite option it sets (`--set <key>=…`). */
  key: string;
  /** The option's one-line description, as the suite's options schema gives it. */
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
