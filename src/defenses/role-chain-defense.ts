import type { StagePromptBuilder } from '../orchestration/chain-stage-prompt.js';
import { leafPaths, runRoleChain } from '../orchestration/role-chain.js';
import { chainCalls, parseTopology, type Topology } from '../orchestration/topology.js';
import type { Defense, ResponderResult } from '../spec/defense.js';
import { PlanValidationError } from '../spec/errors.js';

type ResponderDefense = Extract<Defense, { kind: 'responder' }>;
type RespondOptions = Parameters<ResponderDefense['respond']>[0];

/**
 * Answers one task prompt with one pass of a chain (branching 1 everywhere) and returns the
 * final stage's raw output, with every stage in chain order. The first stage keeps the
 * caller's temperature when it gives one, else its model role's own setting (K draws of a
 * suite stay distinct); later stages decode greedily. Shared by `chain:<topology>` and the 1-2-3 check.
 */
export async function answerWithChain({
  topology,
  defenseId,
  buildPrompt,
  options,
}: {
  topology: Topology;
  defenseId: string;
  buildPrompt?: StagePromptBuilder;
  options: RespondOptions;
}): Promise<ResponderResult> {
  const { prompt, models, emit, settings, sampleOrdinal } = options;
  const tree = await runRoleChain({
    topology,
    prompt,
    models,
    emit,
    settings,
    defenseId,
    // The first stage draws like the single agent it replaces: the caller's temperature, else the
    // role's own setting (so a suite's K-draw temperature reaches the generator); later stages are greedy.
    temperatureFor: ({ stageIndex }) => (stageIndex === 0 ? (settings.temperature ?? 'inherit') : undefined),
    ...(buildPrompt ? { buildPrompt } : {}),
    ...(sampleOrdinal === undefined ? {} : { baseSampleOrdinal: sampleOrdinal }),
  });
  const path = leafPaths(tree)[0] ?? [];
  return {
    text: path.at(-1)?.output ?? '',
    stages: path.map((node) => ({ role: node.role, text: node.output ?? '' })),
  };
}

/**
 * `chain:<topology>`: PrivAct role chains as a responder defense (`privact.md` §2–3), e.g.
 * `chain:G>V>R`, `chain:G>[V,V]>R`. Every role's prompt is built from the suite's TaskPrompt
 * (`chainStagePrompt`), each role uses its own model role (falling back to `agent`), and a
 * `defense-action` event summarises the run. Branching belongs to tree runs, so a `*n` above 1
 * is rejected here. Throws PlanValidationError for a topology that does not parse.
 */
export function createRoleChainDefense(parameter: string | undefined): Defense {
  if (parameter === undefined || parameter.trim() === '') {
    throw new PlanValidationError("defense 'chain' needs a topology: write e.g. chain:G>V>R");
  }
  const topology = parseTopology(parameter);
  const branched = topology.stages.find((stage) => (stage.branching ?? 1) > 1);
  if (branched) {
    throw new PlanValidationError(
      `defense 'chain:${parameter}' answers each prompt once, so stage ${branched.index + 1} cannot branch ` +
        `('*${branched.branching}'); drop '*n' (tree runs set branching with --branching)`,
    );
  }
  const id = `chain:${topology.shape}`;
  return {
    id,
    description: `Role chain ${topology.shape}: each role answers in turn and the last stage's output is the answer.`,
    kind: 'responder',
    appliesTo: ['final-action', 'free-text-answer', 'assistant-turn'],
    answerCalls: chainCalls(topology),
    respond: (options) => answerWithChain({ topology, defenseId: id, options }),
  };
}
