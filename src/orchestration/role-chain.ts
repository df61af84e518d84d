import { createHash } from 'node:crypto';
import type { EmitEvent, GenerateSettings, ModelRoles } from '../spec/chat-model.js';
import type { Message } from '../spec/message.js';
import type { TaskPrompt } from '../spec/task-prompt.js';
import { chainStagePrompt, type StagePromptBuilder, type UpstreamOutput } from './chain-stage-prompt.js';
import { type ChainRole, parseTopology, resolveBranching, type Topology } from './topology.js';

/** Output budget of a stage call when the caller's settings give none (PrivAct's `max_tokens`). */
export const DEFAULT_STAGE_MAX_OUTPUT_TOKENS = 1000;

/** One node of a chain tree (`privact.md` §4). The root carries no prompt, output or sampling. */
export type ChainNode = {
  /** `r`, `r.0`, `r.0.2`, …: the path of sibling indices from the root. */
  nodeId: string;
  /** `[]` for the root, then one sibling index per level. */
  treeIndex: number[];
  role: 'root' | ChainRole;
  /** Key into `ChainTree.prompts`; null for the root. */
  promptId: string | null;
  /** Raw model text (untrusted); null for the root. */
  output: string | null;
  /** `temperature` is null when the stage left it to the model role's own setting. */
  sampling: { temperature: number | null; maxOutputTokens: number; sampleOrdinal: number } | null;
  children: ChainNode[];
};

/**
 * A whole role-chain run: every root-to-leaf path is one trajectory, and the leaves are final
 * answers. With branching 1 everywhere it has one path (a plain pipeline).
 *
 * A parallel group `[V,V]` sample is a path of one node per member (member 2 is the child of
 * member 1, member 1 carries the group's sibling index, later members index 0); members do
 * not see each other, only the stage after the group sees all of them.
 */
export type ChainTree = {
  caseName: string;
  /** Canonical shape, e.g. `G>V>R` or `G>[V,V]>R`. */
  topology: string;
  branching: number[];
  /** Rendered prompts by id; siblings share one. */
  prompts: Record<string, Message[]>;
  root: ChainNode;
};

/** Options of `runRoleChain`. */
export type RunRoleChainOptions = {
  /** A parsed topology or its string (`G>V>R`). */
  topology: Topology | string;
  /** `--branching` style list merged with `*n` (see `resolveBranching`); default 1 per stage. */
  branching?: readonly number[] | string;
  prompt: TaskPrompt;
  /** Each stage calls `models.model(<role>)`; the roles fall back to `agent` there. */
  models: ModelRoles;
  emit: EmitEvent;
  /** Base settings of every call; each stage sets its own temperature and output budget. */
  settings?: GenerateSettings;
  /**
   * Overrides a stage's temperature; return undefined to keep the default
   * (1.0 when the stage branches, 0 when it does not).
   */
  temperatureFor?: (stage: {
    stageIndex: number;
    branching: number;
    roles: ChainRole[];
  }) => number | 'inherit' | undefined;
  /** Builds each member's messages; default `chainStagePrompt` (`privact.md` §3). */
  buildPrompt?: StagePromptBuilder;
  /** Stored as `ChainTree.caseName`; default ''. */
  caseName?: string;
  /**
   * The caller's own draw number (K samples of one prompt). Sibling j of a stage with
   * branching n under the p-th of P parents uses sampleOrdinal `(base * P + p) * n + j`, so every
   * call stays distinct in the cache.
   */
  baseSampleOrdinal?: number;
  /** Names the defense in the summary `defense-action` event; default `chain:<shape>`. */
  defenseId?: string;
};

/** A stable id for a rendered prompt: `p` + 16 hex digits of the SHA-256 of its JSON. */
export function promptIdOf(messages: readonly Message[]): string {
  return `p${createHash('sha256').update(JSON.stringify(messages)).digest('hex').slice(0, 16)}`;
}

/** Every root-to-leaf path of a tree, without the root, in sibling order. */
export function leafPaths(tree: ChainTree): ChainNode[][] {
  const paths: ChainNode[][] = [];
  const walk = (node: ChainNode, path: ChainNode[]) => {
    if (node.children.length === 0) {
      if (path.length > 0) paths.push(path);
      return;
    }
    for (const child of node.children) walk(child, [...path, child]);
  };
  walk(tree.root, []);
  return paths;
}

type Frontier = { node: ChainNode; upstream: UpstreamOutput[] };

/**
 * Runs a topology over one task prompt and returns the whole tree (`privact.md` §4).
 *
 * Stages run in order. Each frontier node (a leaf of the previous stage) gets `branching`
 * samples of the stage: n separate calls on the same prompt with sampleOrdinals
 * `(base * P + p) * n + 0 … n-1` under the p-th of the stage's P parents, at temperature 1.0 when n > 1 and 0 (greedy) when n = 1 unless
 * `temperatureFor` says otherwise. A stage sees only the outputs of its own ancestors
 * (never a sibling's), and the members of a parallel group all see the same upstream
 * context. Calls of one stage run concurrently; the tree is assembled in sibling order, so it
 * does not depend on which call finishes first. Emits one `defense-action` event summarising
 * the run. A failed call rejects the whole run (the sample errors).
 */
export async function runRoleChain(options: RunRoleChainOptions): Promise<ChainTree> {
  const topology = typeof options.topology === 'string' ? parseTopology(options.topology) : options.topology;
  const branching = resolveBranching({ topology, ...(options.branching ? { branching: options.branching } : {}) });
  const buildPrompt = options.buildPrompt ?? chainStagePrompt;
  const settings = options.settings ?? {};
  const maxOutputTokens = settings.maxOutputTokens ?? DEFAULT_STAGE_MAX_OUTPUT_TOKENS;
  const base = options.baseSampleOrdinal ?? 0;
  const prompts: Record<string, Message[]> = {};
  const root: ChainNode = {
    nodeId: 'r',
    treeIndex: [],
    role: 'root',
    promptId: null,
    output: null,
    sampling: null,
    children: [],
  };
  let frontier: Frontier[] = [{ node: root, upstream: [] }];
  let modelCalls = 0;

  for (const stage of topology.stages) {
    const n = branching[stage.index] ?? 1;
    const roles = stage.members.map((member) => member.role);
    const chosen = options.temperatureFor?.({ stageIndex: stage.index, branching: n, roles });
    // 'inherit' leaves the temperature to the role's configured settings (e.g. a suite's K-draw default).
    const temperature = chosen === 'inherit' ? null : (chosen ?? (n > 1 ? 1.0 : 0));
    const { temperature: _callerTemperature, ...baseSettings } = settings;
    const stageSettings = temperature === null ? baseSettings : { ...baseSettings, temperature };
    const expanded = await Promise.all(
      frontier.map(async (entry, parentIndex): Promise<Frontier[]> => {
        const memberPrompts = stage.members.map((member) => {
          const messages = buildPrompt({
            prompt: options.prompt,
            topology,
            stageIndex: stage.index,
            member,
            upstream: entry.upstream,
          });
          const promptId = promptIdOf(messages);
          prompts[promptId] = messages;
          return { member, messages, promptId };
        });
        const samples = await Promise.all(
          Array.from({ length: n }, (_unused, sibling) =>
            Promise.all(
              memberPrompts.map(async ({ member, messages, promptId }) => {
                // The parent's position is part of the draw: two parents that happen to render the
                // same prompt (identical upstream outputs) still get independent samples, in the
                // cache as in the tree. With one parent this is `base * n + sibling`.
                const sampleOrdinal = (base * frontier.length + parentIndex) * n + sibling;
                modelCalls += 1;
                const result = await options.models.model(member.role).generate({
                  messages,
                  settings: { ...stageSettings, maxOutputTokens },
                  sampleOrdinal,
                });
                return {
                  member,
                  promptId,
                  text: result.text,
                  sampling: { temperature, maxOutputTokens, sampleOrdinal },
                };
              }),
            ),
          ),
        );
        return samples.map((members, sibling) => {
          let parent = entry.node;
          members.forEach((member, position) => {
            const index = position === 0 ? sibling : 0;
            const node: ChainNode = {
              nodeId: `${parent.nodeId}.${index}`,
              treeIndex: [...parent.treeIndex, index],
              role: member.member.role,
              promptId: member.promptId,
              output: member.text,
              sampling: member.sampling,
              children: [],
            };
            parent.children.push(node);
            parent = node;
          });
          const outputs = members.map(({ member, text }) => ({ role: member.role, label: member.label, text }));
          return { node: parent, upstream: [...entry.upstream, ...outputs] };
        });
      }),
    );
    frontier = expanded.flat();
  }

  // parseTopology guarantees a last stage holding one actor.
  const last = topology.stages.at(-1)!.members[0]!;
  options.emit({
    type: 'defense-action',
    defense: options.defenseId ?? `chain:${topology.shape}`,
    action: 'rewrite',
    reason:
      `the answer came from the role chain ${topology.shape} (${topology.stages.length} stages, ` +
      `${modelCalls} model calls, ${frontier.length} final answers); final stage: ${last.label}`,
    topology: topology.shape,
    branching,
    stages: topology.stages.length,
    modelCalls,
    leaves: frontier.length,
    finalRole: last.role,
  });
  return { caseName: options.caseName ?? '', topology: topology.shape, branching, prompts, root };
}
