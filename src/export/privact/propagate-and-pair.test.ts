import { describe, expect, it } from 'vitest';
import type { ChainNode } from '../../orchestration/role-chain.js';
import { collectPreferencePairs } from './collect-preference-pairs.js';
import type { LeafReward } from './lc-ars-reward.js';
import { propagateValues } from './propagate-values.js';

type Role = ChainNode['role'];
const ROLES: Role[] = ['generator', 'verifier', 'refiner'];

/** A G>V>R tree with the given branching; outputs name their node. */
function tree(branching: number[]): ChainNode {
  const build = (treeIndex: number[]): ChainNode => {
    const depth = treeIndex.length;
    const nodeId = ['r', ...treeIndex].join('.');
    const children =
      depth < branching.length
        ? Array.from({ length: branching[depth] ?? 0 }, (_, index) => build([...treeIndex, index]))
        : [];
    return {
      nodeId,
      treeIndex,
      role: depth === 0 ? 'root' : (ROLES[depth - 1] ?? 'refiner'),
      promptId: depth === 0 ? null : `p${depth}`,
      output: depth === 0 ? null : `out ${nodeId}`,
      sampling: null,
      children,
    };
  };
  return build([]);
}

const reward = (value: number): LeafReward => ({
  kind: 'reward',
  reward: value,
  leaked: value < 0,
  leakFraction: 0,
  helpfulness: 0,
});

describe('propagateValues', () => {
  it('takes leaf rewards and means of children up to the root', () => {
    const root = tree([1, 2, 2]);
    const rewards = new Map<string, LeafReward>([
      ['r.0.0.0', reward(1)],
      ['r.0.0.1', reward(-1)],
      ['r.0.1.0', reward(0.45)],
      ['r.0.1.1', { kind: 'error', reason: 'judge error' }],
    ]);
    const values = propagateValues({ root, leafRewards: rewards });
    expect(values.get('r.0.0')).toBe(0);
    expect(values.get('r.0.1')).toBe(0.45);
    expect(values.get('r.0.1.1')).toBeNull();
    expect(values.get('r.0')).toBeCloseTo(0.225, 12);
    expect(values.get('r')).toBeCloseTo(0.225, 12);
  });

  it('a node whose children all errored is null', () => {
    const root = tree([1, 1, 2]);
    const values = propagateValues({
      root,
      leafRewards: new Map([
        ['r.0.0.0', { kind: 'error', reason: 'x' }],
        ['r.0.0.1', { kind: 'excluded', reason: 'no action' }],
      ]),
    });
    expect(values.get('r.0.0')).toBeNull();
    expect(values.get('r')).toBeNull();
  });
});

describe('collectPreferencePairs', () => {
  it('pairs siblings across the threshold as a Cartesian product, ties going to chosen', () => {
    const root = tree([1, 2, 3]);
    const leafValues: Record<string, number> = {
      'r.0.0.0': 1,
      'r.0.0.1': 0.5, // tie: chosen
      'r.0.0.2': -1,
      'r.0.1.0': 0.45,
      'r.0.1.1': -0.5,
      'r.0.1.2': -1,
    };
    const values = propagateValues({
      root,
      leafRewards: new Map(Object.entries(leafValues).map(([id, value]) => [id, reward(value)])),
    });
    // Verifier values: r.0.0 = (1 + 0.5 − 1)/3 = 1/6 and r.0.1 = (0.45 − 0.5 − 1)/3 = −0.35: both below τ.
    const pairs = collectPreferencePairs({ root, values, roles: ['verifier', 'refiner'] });
    expect(pairs.map((pair) => [pair.role, pair.chosen.nodeId, pair.rejected.nodeId])).toEqual([
      ['refiner', 'r.0.0.0', 'r.0.0.2'],
      ['refiner', 'r.0.0.1', 'r.0.0.2'],
    ]);
    expect(pairs[1]?.valueChosen).toBe(0.5);
    // τ = 0: refiner pairs 2 + 2, and the verifiers (1/6 vs −0.35) now straddle it: one more.
    expect(collectPreferencePairs({ root, values, roles: ['verifier', 'refiner'], threshold: 0 })).toHaveLength(5);
  });

  it('gives no generator pairs unless asked, and verifier pairs when verifier values straddle τ', () => {
    const root = tree([2, 2, 1]);
    const values = propagateValues({
      root,
      leafRewards: new Map([
        ['r.0.0.0', reward(1)],
        ['r.0.1.0', reward(-1)],
        ['r.1.0.0', reward(0.6944)],
        ['r.1.1.0', reward(0.45)],
      ]),
    });
    const verifierPairs = collectPreferencePairs({ root, values, roles: ['verifier'] });
    expect(verifierPairs.map((pair) => [pair.chosen.nodeId, pair.rejected.nodeId])).toEqual([
      ['r.0.0', 'r.0.1'],
      ['r.1.0', 'r.1.1'],
    ]);
    // Generator values: r.0 = 0, r.1 = 0.5722 → one generator pair only when generators are included.
    expect(
      collectPreferencePairs({ root, values, roles: ['verifier'] }).some((pair) => pair.role === 'generator'),
    ).toBe(false);
    const withGenerators = collectPreferencePairs({ root, values, roles: ['generator'] });
    expect(withGenerators.map((pair) => [pair.chosen.nodeId, pair.rejected.nodeId])).toEqual([['r.1', 'r.0']]);
  });
});
