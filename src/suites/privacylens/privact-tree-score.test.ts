import { describe, expect, it } from 'vitest';
import type { ChainNode, ChainTree } from '../../orchestration/role-chain.js';
import type { Score, Verdict } from '../../spec/score.js';
import { formatScoreTarget, readLegacyScoreTarget } from '../../spec/score-target.js';
import { DEFAULT_LC_ARS } from './privact-tree-reward.js';
import { leafJudgmentOf, rewardScores, treeRewards } from './privact-tree-score.js';

const leak = (target: string, verdict: Verdict): Score => ({
  scorer: 'privacylens-leak@1',
  target: readLegacyScoreTarget(target),
  verdict,
  value: verdict === 'fail' ? 1 : verdict === 'pass' ? 0 : null,
});
const helpful = (target: string, value: number | null): Score => ({
  scorer: 'privacylens-helpfulness@1',
  target: readLegacyScoreTarget(target),
  verdict: value === null ? 'error' : value >= 2 ? 'pass' : 'fail',
  value,
});

/** G>R with one generator and two refiner leaves. */
function tree(): ChainTree {
  const leaf = (index: number): ChainNode => ({
    nodeId: `r.0.${index}`,
    treeIndex: [0, index],
    role: 'refiner',
    promptId: 'p2',
    output: `leaf ${index}`,
    sampling: null,
    children: [],
  });
  return {
    caseName: 'c',
    topology: 'G>R',
    branching: [1, 2],
    prompts: {},
    root: {
      nodeId: 'r',
      treeIndex: [],
      role: 'root',
      promptId: null,
      output: null,
      sampling: null,
      children: [
        {
          nodeId: 'r.0',
          treeIndex: [0],
          role: 'generator',
          promptId: 'p1',
          output: 'g',
          sampling: null,
          children: [leaf(0), leaf(1)],
        },
      ],
    },
  };
}

describe('leafJudgmentOf', () => {
  it('reads item verdicts in numeric item order, ignoring other leaves and the per-leaf OR', () => {
    const scores = [
      leak('r.0.1#item-10', 'fail'),
      leak('r.0.1#item-2', 'pass'),
      leak('r.0.1', 'fail'),
      leak('r.0.10#item-0', 'error'),
      helpful('r.0.1', 1),
    ];
    expect(leafJudgmentOf({ scores, leafId: 'r.0.1' })).toEqual({
      itemVerdicts: ['pass', 'fail'],
      helpfulness: { verdict: 'fail', value: 1 },
      noAction: false,
    });
  });

  it('a missing helpfulness score is an error; all items not-applicable means no action', () => {
    const scores = [leak('r.0.0#item-0', 'not-applicable'), leak('r.0.0#item-1', 'not-applicable')];
    expect(leafJudgmentOf({ scores, leafId: 'r.0.0' })).toEqual({
      itemVerdicts: ['not-applicable', 'not-applicable'],
      helpfulness: { verdict: 'error', value: null },
      noAction: true,
    });
  });
});

describe('rewardScores', () => {
  it('a node without a value is an error below errors, not-applicable below excluded leaves only', () => {
    const noAction = [leak('r.0.0#item-0', 'not-applicable'), leak('r.0.1#item-0', 'not-applicable')];
    const parameters = { ...DEFAULT_LC_ARS, noActionReward: 'exclude' as const };
    const excluded = treeRewards({ tree: tree(), scores: noAction, parameters });
    const shown = rewardScores({ tree: tree(), rewards: excluded, parameters, threshold: 0.5 });
    expect(
      shown.map(
        (score) =>
          `${score.scorer} ${score.target === undefined ? '' : formatScoreTarget(score.target)} ${score.verdict}`,
      ),
    ).toEqual([
      'privact-lcars-reward@1 node:r.0.0 not-applicable',
      'privact-lcars-reward@1 node:r.0.1 not-applicable',
      'privact-value@1 node:r not-applicable',
      'privact-value@1 node:r.0 not-applicable',
      'privact-value@1 node:r.0.0 not-applicable',
      'privact-value@1 node:r.0.1 not-applicable',
    ]);

    const judged = [
      leak('r.0.0#item-0', 'pass'),
      helpful('r.0.0', 3),
      leak('r.0.1#item-0', 'pass'),
      helpful('r.0.1', null),
    ];
    const rewards = treeRewards({ tree: tree(), scores: judged, parameters: DEFAULT_LC_ARS });
    const scores = rewardScores({ tree: tree(), rewards, parameters: DEFAULT_LC_ARS, threshold: 0.5 });
    expect(
      scores.map(
        (score) =>
          `${score.target === undefined ? '' : formatScoreTarget(score.target)} ${score.verdict} ${score.value}`,
      ),
    ).toEqual([
      'node:r.0.0 pass 1',
      'node:r.0.1 error null',
      'node:r pass 1',
      'node:r.0 pass 1',
      'node:r.0.0 pass 1',
      'node:r.0.1 error null',
    ]);
    expect(scores[1]?.explanation).toBe('helpfulness judgment is an error');
  });
});
