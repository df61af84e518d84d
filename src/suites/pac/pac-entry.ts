import type { SuiteEntry } from '../suite-entry.js';

/** PAC-Bench's registry entry: id and flags without loading the suite. */
export const pacEntry: SuiteEntry = {
  id: 'pac',
  flags: [
    {
      flag: '--split',
      key: 'split',
      description:
        'change, range, all (both), starter (ours), nparty (our N-party starters) or features (ours: scheduling check, shared-file appenders)',
    },
    {
      flag: '--domain',
      key: 'domains',
      description: 'domain directory names to keep (comma list); all when absent',
    },
    {
      flag: '--scenarios',
      key: 'scenarios',
      description:
        'your own scenario files: a folder (every .json/.jsonl, any names), a .json or a .jsonl file; replaces split',
    },
    {
      flag: '--variant',
      key: 'variant',
      description:
        'protocol variant (pacbench.md §10): default, privacy-free, no-privacy-instruction, privacy-cot, b-prompt, adversarial-partner',
    },
    {
      flag: '--tools',
      key: 'tools',
      description: 'in-process (VFS, default; alias vfs) or mcp-server (the spawned official server)',
    },
    { flag: '--errors', key: 'errors', description: 'errored runs: exclude (headline) or include as 0' },
  ],
  load: async () => (await import('./suite.js')).pacSuite,
};
