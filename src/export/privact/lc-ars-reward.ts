/**
 * LC-ARS reward (privact.md §5). The implementation lives beside the `privact-tree` suite,
 * which stores every leaf's reward with its tree (a suite may not import export/); the export
 * recomputes rewards from the stored judgments with the same function.
 */
export {
  DEFAULT_LC_ARS,
  type LcArsParameters,
  type LeafJudgment,
  type LeafReward,
  lcArsReward,
} from '../../suites/privacylens/privact-tree-reward.js';
