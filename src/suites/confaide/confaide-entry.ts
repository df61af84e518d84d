import type { SuiteEntry } from '../suite-entry.js';

/** ConfAIde's registry entry: id and flags without loading the suite. */
export const confaideEntry: SuiteEntry = {
  id: 'confaide',
  flags: [
    {
      flag: '--tier',
      key: 'tier',
      description:
        'which tier to run: 1 and 2a/2b rate privacy norms, 3 keeps secrets in stories, 4 writes meeting summaries',
    },
    { flag: '--questions', key: 'questions', description: 'question types to ask; default every type of the tier' },
    {
      flag: '--instruction',
      key: 'instruction',
      description: 'tiers 3/4: prepend the privacy instruction line (upstream default on)',
    },
  ],
  load: async () => (await import('./suite.js')).confaideSuite,
};
