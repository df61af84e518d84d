import type { ChainNode } from '../../orchestration/role-chain.js';
import type { LeafReward } from './privact-tree-reward.js';

/** A node's value: a number, or null when it (or every child) has no usable reward. */
export type NodeValues = Map<string, number | null>;

/**
 * Mean value propagation (privact.md §6): a leaf's value is its reward; every other node's
 * value is the unweighted mean of its children's values, in post-order, the root included.
 * Children with a null value (reward error, excluded leaf, missing judgment) are left out of the
 * mean; a node whose children are all null is null and yields no pairs.
 */
export function propagateValues({
  root,
  leafRewards,
}: {
  root: ChainNode;
  leafRewards: ReadonlyMap<string, LeafReward>;
}): NodeValues {
  const values: NodeValues = new Map();
  const visit = (node: ChainNode): number | null => {
    if (node.children.length === 0) {
      const reward = leafRewards.get(node.nodeId);
      const value = reward?.kind === 'reward' ? reward.reward : null;
      values.set(node.nodeId, value);
      return value;
    }
    const childValues = node.children.map(visit).filter((value): value is number => value !== null);
    const value =
      childValues.length === 0 ? null : childValues.reduce((sum, item) => sum + item, 0) / childValues.length;
    values.set(node.nodeId, value);
    return value;
  };
  visit(root);
  return values;
}
