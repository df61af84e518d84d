import { commonExplanation } from '../../metrics/null-reason.js';
import type { Score } from '../../spec/score.js';
import { sameScoreTarget } from '../../spec/score-target.js';
import {
  HELPFULNESS_SCORER,
  type LcArsParameters,
  nodeTarget,
  treeLeaves,
  treeRewards,
} from '../../suites/privacylens/index.js';
import type { TreeRun } from './read-tree-run.js';

/** The settings one run's pairs were collected with. */
export type RunPairSettings = { run: TreeRun; threshold: number; lcars: LcArsParameters };

const mostCommon = (texts: readonly string[]): string | undefined => {
  const counts = new Map<string, number>();
  for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
};

/**
 * Why an export found no preference pair, in one sentence, from the first thing that ran out:
 * no tree to read (failed or not built), no leaf with a reward (its judgments failed: the most
 * common reason and judge error), or rewards whose sibling values never straddle τ.
 */
export function explainNoPairs(runs: readonly RunPairSettings[]): string {
  const trees = runs.flatMap(({ run }) => run.trees);
  const failed = runs.reduce((sum, { run }) => sum + run.failed.length, 0);
  const missing = runs.reduce((sum, { run }) => sum + run.missing.length, 0);
  if (trees.length === 0) {
    return `there is no judged tree to pair: ${failed} tree(s) failed and ${missing} were not built yet (resume the run, with --retry-errors for the failed ones)`;
  }
  let leaves = 0;
  let rewarded = 0;
  let excluded = 0;
  const errorReasons: string[] = [];
  const helpfulnessErrors: Score[] = [];
  for (const { run, lcars } of runs) {
    for (const sample of run.trees) {
      const { leafRewards } = treeRewards({ tree: sample.tree, scores: sample.scores, parameters: lcars });
      for (const leaf of treeLeaves(sample.tree.root)) {
        leaves += 1;
        const reward = leafRewards.get(leaf.nodeId);
        if (reward?.kind === 'reward') rewarded += 1;
        else if (reward?.kind === 'excluded') excluded += 1;
        else errorReasons.push(reward?.reason ?? 'no reward');
        const helpfulness = sample.scores.find(
          (score) => score.scorer === HELPFULNESS_SCORER && sameScoreTarget(score.target, nodeTarget(leaf.nodeId)),
        );
        if (helpfulness?.verdict === 'error') helpfulnessErrors.push(helpfulness);
      }
    }
  }
  if (rewarded === 0) {
    if (helpfulnessErrors.length === leaves) {
      const why = commonExplanation(helpfulnessErrors, 'error');
      return `every leaf's helpfulness judge failed (${leaves} of ${leaves} leaves)${why === undefined ? '' : `: ${why}`}, so no leaf has a reward; check the judge model and rerun with --retry-errors`;
    }
    const why = mostCommon(errorReasons);
    return `no leaf has a reward (${leaves} leaves: ${errorReasons.length} with failed judgments${why === undefined ? '' : ` (most often: ${why})`}, ${excluded} excluded as no-action)`;
  }
  const thresholds = [...new Set(runs.map(({ threshold }) => threshold))].join(', ');
  return `no sibling pair has one value ≥ τ (${thresholds}) and one below: ${rewarded} of ${leaves} leaves have rewards, but siblings always fall on the same side; try another --threshold`;
}
