import type { ChainNode } from '../../orchestration/role-chain.js';
import type { NodeValues } from './privact-tree-values.js';

/** One preference pair among siblings: the chosen output scored at least τ, the rejected below it. */
export type PreferencePair = {
  role: string;
  parentNodeId: string;
  chosen: ChainNode;
  rejected: ChainNode;
  valueChosen: number;
  valueRejected: number;
};

/**
 * Builds preference pairs (privact.md §7): for every parent whose children play a role in
 * `roles`, split the children into P = {V ≥ τ} and N = {V < τ} (ties go to chosen; null values
 * are left out) and emit the full Cartesian product P × N, in child order.
 */
export function collectPreferencePairs({
  root,
  values,
  roles,
  threshold = 0.5,
}: {
  root: ChainNode;
  values: NodeValues;
  roles: readonly string[];
  threshold?: number;
}): PreferencePair[] {
  const pairs: PreferencePair[] = [];
  const visit = (parent: ChainNode) => {
    const scored = parent.children
      .filter((child) => roles.includes(child.role))
      .map((child) => ({ child, value: values.get(child.nodeId) ?? null }))
      .filter((entry): entry is { child: ChainNode; value: number } => entry.value !== null);
    const chosen = scored.filter((entry) => entry.value >= threshold);
    const rejected = scored.filter((entry) => entry.value < threshold);
    for (const good of chosen) {
      for (const bad of rejected) {
        pairs.push({
          role: good.child.role,
          parentNodeId: parent.nodeId,
          chosen: good.child,
          rejected: bad.child,
          valueChosen: good.value,
          valueRejected: bad.value,
        });
      }
    }
    for (const child of parent.children) visit(child);
  };
  visit(root);
  return pairs;
}
