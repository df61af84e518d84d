import { PlanValidationError } from '../spec/errors.js';
import { confaideEntry } from './confaide/confaide-entry.js';
import { pacEntry } from './pac/pac-entry.js';
import { privacybenchCalibrationEntry, privacybenchEntry } from './privacybench/privacybench-entry.js';
import { privactTreeEntry, privacylensEntry } from './privacylens/privacylens-entry.js';
import type { Suite } from './suite.js';
import type { SuiteEntry } from './suite-entry.js';
import { toyLeakEntry } from './toy-leak/toy-leak-entry.js';

/**
 * Every suite, one line each: its entry (id and flags) and how to load it. No suite's code is
 * imported until a command needs that suite (`loadSuite`).
 */
export const suiteRegistry: SuiteEntry[] = [
  confaideEntry,
  pacEntry,
  privacybenchEntry,
  privacybenchCalibrationEntry,
  privacylensEntry,
  privactTreeEntry,
  toyLeakEntry,
];

const loaded = new Map<string, Promise<Suite>>();
const settled = new Map<string, Suite>();

/** Finds a suite's entry by id, or throws a user error that lists the registered ones. */
export function findSuiteEntry(id: string): SuiteEntry {
  const entry = suiteRegistry.find((candidate) => candidate.id === id);
  if (!entry) {
    const known = suiteRegistry.map((candidate) => candidate.id).join(', ');
    throw new PlanValidationError(`unknown suite '${id}': use one of ${known} (see \`confidant list suites\`)`);
  }
  return entry;
}

/** Loads a suite by id (its module is imported once), or throws a user error that lists the registered ones. */
export function loadSuite(id: string): Promise<Suite> {
  const entry = findSuiteEntry(id);
  let suite = loaded.get(entry.id);
  if (suite === undefined) {
    suite = entry.load().then((value) => {
      settled.set(entry.id, value);
      return value;
    });
    loaded.set(entry.id, suite);
  }
  return suite;
}

/** Every registered suite, loaded, in registry order (`list suites`, docs). */
export function loadSuites(): Promise<Suite[]> {
  return Promise.all(suiteRegistry.map((entry) => loadSuite(entry.id)));
}

/**
 * The suite `id` if `loadSuite` has already loaded it: for synchronous code such as commander's
 * help callbacks, whose caller loads the suites the command line names first.
 */
export function loadedSuite(id: string): Suite | undefined {
  return settled.get(id);
}
