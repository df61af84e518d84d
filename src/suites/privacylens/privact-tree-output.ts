import { z } from 'zod';
import type { ChainNode, ChainTree } from '../../orchestration/role-chain.js';
import { CHAIN_ROLES, type ChainRole } from '../../orchestration/topology.js';
import { messageSchema } from '../../spec/message.js';
import { caseFactsSchema } from './privacylens-output.js';

const NODE_ROLES = ['root', ...(Object.keys(CHAIN_ROLES) as ChainRole[])] as const;

/** One stored tree node (`privact.md` §4); recursive. */
export const chainNodeSchema: z.ZodType<ChainNode> = z.lazy(() =>
  z.object({
    nodeId: z.string(),
    treeIndex: z.array(z.number().int().min(0)),
    role: z.enum(NODE_ROLES),
    promptId: z.string().nullable(),
    output: z.string().nullable(),
    sampling: z
      .object({ temperature: z.number().nullable(), maxOutputTokens: z.number(), sampleOrdinal: z.number() })
      .nullable(),
    children: z.array(chainNodeSchema),
  }),
);

/**
 * The output of a `privact-tree` sample: exactly the `ChainTree` that `runRoleChain` returns
 * (readers validate stored records with it, since a run directory is data from disk).
 */
export const chainTreeSchema: z.ZodType<ChainTree> = z.object({
  caseName: z.string(),
  topology: z.string(),
  branching: z.array(z.number().int().positive()),
  prompts: z.record(z.string(), z.array(messageSchema)),
  root: chainNodeSchema,
});

/**
 * The `input` of a `privact-tree` sample: the prompt template, the case facts (the sensitive items
 * name the leak scores' `item` target fields) and the resolved per-stage sampling.
 */
export const privactTreeInputSchema = z.object({
  promptTemplate: z.object({ id: z.string(), version: z.number() }),
  case: caseFactsSchema,
  missingToolkits: z.array(z.string()),
  temperatures: z.array(z.number()).describe('temperature of each stage, in chain order'),
});
/** What a `privact-tree` sample stores as its input. */
export type PrivactTreeInput = z.infer<typeof privactTreeInputSchema>;

/** Every node of a tree in pre-order (root first, siblings in order). */
export function treeNodes(root: ChainNode): ChainNode[] {
  const nodes: ChainNode[] = [];
  const visit = (node: ChainNode) => {
    nodes.push(node);
    for (const child of node.children) visit(child);
  };
  visit(root);
  return nodes;
}

/** The leaves of a tree (its final answers), in sibling order; a root alone has none. */
export function treeLeaves(root: ChainNode): ChainNode[] {
  return treeNodes(root).filter((node) => node.children.length === 0 && node.role !== 'root');
}
