import type { SuiteEntry } from '../suite-entry.js';

/** PrivacyLens's registry entry: id and flags without loading the suite. */
export const privacylensEntry: SuiteEntry = {
  id: 'privacylens',
  flags: [
    {
      flag: '--split',
      key: 'split',
      description: "PrivAct's split of the main set: all, train (394) or test (99)",
    },
    { flag: '--subset', key: 'subset', description: 'case file: main (493), confide (32) or culturebank (24)' },
  ],
  load: async () => (await import('./suite.js')).privacylensSuite,
};

/** PrivAct's tree-sampling suite's registry entry: id and flags without loading the suite. */
export const privactTreeEntry: SuiteEntry = {
  id: 'privact-tree',
  flags: [
    {
      flag: '--split',
      key: 'split',
      description: "PrivAct's split of the main set: train (394, default), test or all",
    },
    {
      flag: '--topology',
      key: 'topology',
      description: 'the chain whose tree is sampled, e.g. G>V>R, G>V>V>R, G>[V,V]>R',
    },
    {
      flag: '--branching',
      key: 'branching',
      description: 'samples per stage, e.g. 4,4,4 (or one value for every stage); default *n or 4 per stage',
    },
    {
      flag: '--temperatures',
      key: 'temperatures',
      description: 'temperature per stage, e.g. 1,0.7,0; default 1.0 where a stage branches, 0 (greedy) where not',
    },
    { flag: '--alpha', key: 'alpha', description: 'LC-ARS leak exponent α' },
    { flag: '--beta', key: 'beta', description: 'LC-ARS helpfulness exponent β' },
    { flag: '--b1', key: 'b1', description: 'LC-ARS leak offset b1' },
    { flag: '--b2', key: 'b2', description: 'LC-ARS no-leak floor b2' },
    {
      flag: '--lcars-form',
      key: 'lcarsForm',
      description: 'LC-ARS leak branch: code (released pipeline, default) or paper (Eq. 1); equal when b1 = 0',
    },
    {
      flag: '--threshold',
      key: 'threshold',
      description: 'τ: a node with value ≥ τ is preferred (pass) and pairs are counted at τ',
    },
  ],
  load: async () => (await import('./privact-tree-suite.js')).privactTreeSuite,
};
