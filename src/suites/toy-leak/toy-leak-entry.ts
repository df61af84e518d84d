import type { SuiteEntry } from '../suite-entry.js';

/** The toy-leak suite's registry entry (it has no flags). */
export const toyLeakEntry: SuiteEntry = {
  id: 'toy-leak',
  flags: [],
  load: async () => (await import('./suite.js')).toyLeakSuite,
};
