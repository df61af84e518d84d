import { join } from 'node:path';
import { applyPromptDefenses } from '../../agents/apply-prompt-defenses.js';
import { requireDatasetFiles } from '../../datasets/data-dir.js';
import type { ChainTree } from '../../orchestration/role-chain.js';
import { runRoleChain } from '../../orchestration/role-chain.js';
import { chainCalls } from '../../orchestration/topology.js';
import type { EmitEvent } from '../../spec/chat-model.js';
import type { Defense } from '../../spec/defense.js';
import { PlanValidationError } from '../../spec/errors.js';
import type { TaskPrompt } from '../../spec/task-prompt.js';
import { estimateTokens, exactly, type PlannedCalls } from '../call-pattern.js';
import { defineSuite, type SampleOutcome } from '../suite.js';
import { agentPromptTemplate, buildAgentPrompt } from './agent-prompt.js';
import { loadCases, type PrivacyLensCase, SUBSET_FILES } from './load-cases.js';
import { plannedJudgeCalls } from './planned-judge-calls.js';
import { PRIVACT_TREE_METRIC_DEFINITIONS } from './privact-tree-metric-definitions.js';
import { privactTreeMetrics, privactTreeScenarioStatistics } from './privact-tree-metrics.js';
import { type PrivactTreeOptions, privactTreeOptionsSchema, treePlan } from './privact-tree-options.js';
import type { PrivactTreeInput } from './privact-tree-output.js';
import { scoreTree } from './privact-tree-score.js';
import { PRIVACYLENS_UPSTREAM_OPTIONS } from './privacylens-options.js';
import { privacyLensJudgeTemplates } from './score-sample.js';

/** Applies the prompt defenses in order (e.g. `privacy-prompt`, which makes every role privacy-conscious). */
function treePromptDefenses({
  prompt,
  defenses,
  emit,
}: {
  prompt: TaskPrompt;
  defenses: readonly Defense[];
  emit: EmitEvent;
}) {
  const responder = defenses.find((defense) => defense.kind === 'responder');
  if (responder) {
    throw new PlanValidationError(
      `privact-tree samples its own chain (--topology), so the responder defense '${responder.id}' cannot apply: drop it`,
    );
  }
  return applyPromptDefenses({ prompt, defenses, emit, appliesTo: 'for every role of the tree' });
}

/**
 * PrivAct tree-structured generation over PrivacyLens (privact.md §4–6): one sample is one case's
 * whole tree. The chain (`--topology`, default G>V>R) runs over the PrivacyLens agent prompt with
 * `--branching` samples per stage (default 4 each: 64 leaves), at temperature 1.0 where a stage
 * branches and greedily where it does not (`--temperatures` overrides); roles generator, verifier,
 * refiner (…) fall back to `agent`. The `judge` role then judges every leaf as the `privacylens`
 * suite judges an answer, and the LC-ARS reward of each leaf and the mean value of every node are
 * stored as scores (`privact-lcars-reward@1`, `privact-value@1`, target = node id).
 *
 * The output is the `ChainTree`; one record per tree, so an interrupted build keeps every finished
 * tree and `confidant resume` (served from the response cache) completes the rest.
 */
export const privactTreeSuite = defineSuite<PrivacyLensCase, ChainTree, PrivactTreeOptions>({
  id: 'privact-tree',
  version: 1,
  description: 'PrivAct preference data: a judged tree of role-chain samples per PrivacyLens case',
  taskKind: 'final-action',
  options: privactTreeOptionsSchema,
  upstreamOptions: PRIVACYLENS_UPSTREAM_OPTIONS,
  flags: [
    { flag: '--split', key: 'split' },
    { flag: '--topology', key: 'topology' },
    { flag: '--branching', key: 'branching' },
    { flag: '--temperatures', key: 'temperatures' },
    { flag: '--alpha', key: 'alpha' },
    { flag: '--beta', key: 'beta' },
    { flag: '--b1', key: 'b1' },
    { flag: '--b2', key: 'b2' },
    { flag: '--lcars-form', key: 'lcarsForm' },
    { flag: '--threshold', key: 'threshold' },
  ],
  roles: (options) => {
    const { topology } = treePlan(options);
    const chainRoles = [...new Set(topology.stages.flatMap((stage) => stage.members.map((member) => member.role)))];
    // Chain roles fall back to `agent`, so `--model <spec>` alone covers them.
    return { required: [...chainRoles, 'judge'], optional: ['agent'] };
  },
  defaultSettings: () => ({ judge: { maxOutputTokens: 1000, stop: ['\n\n---'] } }),
  dataset: {
    name: 'privacylens',
    files: ({ dataDir }) => [join(dataDir, 'privacylens', SUBSET_FILES.main)],
    load: async ({ dataDir, options }) =>
      loadCases({
        datasetDir: requireDatasetFiles({ dataDir, name: 'privacylens', files: [SUBSET_FILES.main] }),
        subset: 'main',
        split: options.split,
      }),
    id: (privacyCase) => privacyCase.name,
  },

  async solve({ sample, scenario, options, models, defenses, emit }): Promise<SampleOutcome<ChainTree>> {
    const { prompt, missingToolkits } = buildAgentPrompt({ privacyCase: scenario, layout: options.promptLayout });
    if (missingToolkits.length > 0) {
      emit({
        type: 'info',
        code: 'toolkit-missing',
        toolkits: missingToolkits,
        message: `case ${scenario.name} names toolkit(s) ${missingToolkits.join(', ')} with no tool spec; left out of the prompt as upstream does`,
      });
    }
    const plan = treePlan(options);
    const tree = await runRoleChain({
      topology: plan.topology,
      branching: plan.branching,
      prompt: treePromptDefenses({ prompt, defenses, emit }),
      models,
      emit,
      settings: { maxOutputTokens: options.maxOutputTokens },
      temperatureFor: ({ stageIndex }) => plan.temperatures[stageIndex],
      caseName: scenario.name,
      // Epoch k draws a fresh tree: sibling j of a stage with branching n uses ordinal (k-1)·n + j.
      baseSampleOrdinal: sample.epoch - 1,
      defenseId: `privact-tree:${plan.topology.shape}`,
    });
    const { seed, trajectory } = scenario;
    const input: PrivactTreeInput = {
      promptTemplate: { id: agentPromptTemplate.id, version: agentPromptTemplate.version },
      case: {
        source: seed.source,
        finalAction: trajectory.final_action,
        toolkits: trajectory.toolkits,
        sensitiveItems: trajectory.sensitive_info_items,
      },
      missingToolkits,
      temperatures: plan.temperatures,
    };
    return { output: tree, input };
  },

  scorers: [
    {
      id: 'privact-tree',
      version: 1,
      templates: (options) => privacyLensJudgeTemplates(options.judgeProtocol),
      score: ({ scenario, options, output, models, emit, signal }) =>
        scoreTree({ tree: output, privacyCase: scenario, options, models, emit, signal }),
    },
  ],

  // The tree: stage s calls each of its roles once per node of stage s (the product of the
  // branchings so far); every leaf is then judged as a PrivacyLens answer.
  callPattern: ({ scenario, options }) => {
    const plan = treePlan(options);
    const prompt = estimateTokens(
      buildAgentPrompt({ privacyCase: scenario, layout: options.promptLayout }).prompt.render(),
    );
    const calls = chainCalls(plan.topology);
    let nodes = 1;
    let index = 0;
    const stages: PlannedCalls[] = plan.topology.stages.flatMap((stage, stageIndex) => {
      nodes *= plan.branching[stageIndex] ?? 1;
      return stage.members.map((): PlannedCalls => {
        const { role, upstream } = calls[index++] ?? { role: 'agent', upstream: 0 };
        const inputTokens = { min: prompt + upstream, max: prompt + upstream * options.maxOutputTokens };
        return { role, count: exactly(nodes), inputTokens, maxOutputTokens: options.maxOutputTokens };
      });
    });
    return [
      ...stages,
      ...plannedJudgeCalls({
        privacyCase: scenario,
        protocol: options.judgeProtocol,
        answers: plan.leaves,
        actionTokens: options.maxOutputTokens,
      }),
    ];
  },
  metrics: {
    compute: ({ records, options }) => privactTreeMetrics({ records, options }),
    scenarioStatistics: (options) => privactTreeScenarioStatistics(options),
    definitions: PRIVACT_TREE_METRIC_DEFINITIONS,
  },
  report: {
    headline: ['leaf_leak_rate', 'helpfulness', 'leaf_reward', 'root_value', 'pairs_verifier', 'pairs_refiner'],
  },
});
