import type { ChainNode } from '../../orchestration/role-chain.js';
import { CHAIN_ROLES, type ChainRole } from '../../orchestration/topology.js';
import { StoreFormatError } from '../../spec/errors.js';
import type { Message } from '../../spec/message.js';
import { collectPreferencePairs, type LcArsParameters, treePlan, treeRewards } from '../../suites/privacylens/index.js';
import type { TreeRun } from './read-tree-run.js';
import { type PromptStyle, trainingPrompt } from './training-prompt.js';

/** One side of a preference pair. */
export type PairSide = { nodeId: string; treeIndex: number[]; output: string; value: number };

/** One exported preference pair with everything the formats and the sidecar need. */
export type PreferenceRecord = {
  runId: string;
  sampleId: string;
  caseName: string;
  role: ChainRole;
  parentNodeId: string;
  /** The stored prompt both siblings were sampled from. */
  promptId: string;
  /** The prompt of the pair in the chosen style. */
  prompt: Message[];
  chosen: PairSide;
  rejected: PairSide;
  threshold: number;
  lcars: LcArsParameters;
  judgeVersions: string[];
  promptStyle: PromptStyle;
};

/** What decides the pairs of one run: roles, τ, LC-ARS parameters and the prompt style. */
export type PairSettings = {
  roles: readonly ChainRole[];
  threshold: number;
  lcars: LcArsParameters;
  promptStyle: PromptStyle;
};

/** `true` when `role` names a chain role (`verifier`, `refiner`, …). */
export function isChainRole(role: string): role is ChainRole {
  return Object.hasOwn(CHAIN_ROLES, role);
}

function side({ node, value, where }: { node: ChainNode; value: number; where: string }): PairSide {
  if (node.output === null) throw new StoreFormatError(`${where}: node ${node.nodeId} has no output`);
  return { nodeId: node.nodeId, treeIndex: [...node.treeIndex], output: node.output, value };
}

/**
 * The preference pairs of every tree of a run (privact.md §5–8): LC-ARS rewards recomputed from
 * the stored judgments with `settings.lcars`, mean values propagated, then for every parent the
 * Cartesian product of its children of a role in `settings.roles` with V ≥ τ (chosen; ties
 * included) against those below τ (rejected). Pairs come in tree order (planned sample order,
 * then pre-order of parents, then child order). Pure: reads the run, calls no model.
 */
export function buildPreferenceRecords({
  run,
  settings,
}: {
  run: TreeRun;
  settings: PairSettings;
}): PreferenceRecord[] {
  const judgeVersions = run.header.judges.map((judge) => `${judge.id}@${judge.version}`);
  const records: PreferenceRecord[] = [];
  for (const sample of run.trees) {
    const where = `${run.location}: sample ${sample.sampleId}`;
    const { tree } = sample;
    const { values } = treeRewards({ tree, scores: sample.scores, parameters: settings.lcars });
    const paths = new Map<string, ChainNode[]>();
    const walk = (node: ChainNode, path: ChainNode[]) => {
      paths.set(node.nodeId, path);
      for (const child of node.children) walk(child, [...path, child]);
    };
    walk(tree.root, []);
    const pairs = collectPreferencePairs({
      root: tree.root,
      values,
      roles: settings.roles,
      threshold: settings.threshold,
    });
    for (const pair of pairs) {
      const role = pair.chosen.role;
      if (role === 'root') continue;
      const promptId = pair.chosen.promptId;
      if (promptId === null || promptId !== pair.rejected.promptId) {
        throw new StoreFormatError(
          `${where}: siblings ${pair.chosen.nodeId} and ${pair.rejected.nodeId} do not share one stored prompt`,
        );
      }
      records.push({
        runId: run.header.runId,
        sampleId: sample.sampleId,
        caseName: sample.caseName,
        role,
        parentNodeId: pair.parentNodeId,
        promptId,
        prompt: trainingPrompt({
          tree,
          parentPath: paths.get(pair.parentNodeId) ?? [],
          role,
          promptId,
          style: settings.promptStyle,
          where,
        }),
        chosen: side({ node: pair.chosen, value: pair.valueChosen, where }),
        rejected: side({ node: pair.rejected, value: pair.valueRejected, where }),
        threshold: settings.threshold,
        lcars: settings.lcars,
        judgeVersions,
        promptStyle: settings.promptStyle,
      });
    }
  }
  return records;
}

/** The roles of a run's topology, in chain order (what `--role` may name for that run). */
export function topologyRoles(run: TreeRun): ChainRole[] {
  const { topology } = treePlan(run.options);
  return [...new Set(topology.stages.flatMap((stage) => stage.members.map((member) => member.role)))];
}
