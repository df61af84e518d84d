/** Sibling preference pairs (privact.md §7); implemented beside the `privact-tree` suite, whose metrics count them. */
export { collectPreferencePairs, type PreferencePair } from '../../suites/privacylens/privact-tree-pairs.js';
