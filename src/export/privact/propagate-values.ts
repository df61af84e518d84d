/** Mean value propagation (privact.md §6); implemented beside the `privact-tree` suite, which stores the values. */
export { type NodeValues, propagateValues } from '../../suites/privacylens/privact-tree-values.js';
