import { join } from 'node:path';
import { answerTaskPrompt } from '../../agents/prompted-responder.js';
import { requireDatasetFiles } from '../../datasets/data-dir.js';
import type { EmitEvent } from '../../spec/chat-model.js';
import { estimateTokens, exactly } from '../call-pattern.js';
import { defineSuite, type SampleOutcome } from '../suite.js';
import { agentPromptTemplate, buildAgentPrompt } from './agent-prompt.js';
import { loadCases, type PrivacyLensCase, SUBSET_FILES } from './load-cases.js';
import { PRIVACYLENS_METRIC_DEFINITIONS } from './metric-definitions.js';
import { privacyLensMetrics, privacyLensScenarioStatistics } from './metrics.js';
import { parseAction } from './parse-action.js';
import { plannedJudgeCalls } from './planned-judge-calls.js';
import { privacyLensCharts } from './privacylens-charts.js';
import {
  PRIVACYLENS_UPSTREAM_OPTIONS,
  type PrivacyLensOptions,
  privacyLensOptionsSchema,
  resolvePostprocess,
} from './privacylens-options.js';
import type { PrivacyLensOutput } from './privacylens-output.js';
import { privacyLensScorer } from './score-sample.js';

/** Records, in the sample's events, the toolkits a case names that have no tool spec. */
function warnToolkitMissing({ emit, toolkits, caseName }: { emit: EmitEvent; toolkits: string[]; caseName: string }) {
  if (toolkits.length === 0) return;
  emit({
    type: 'info',
    code: 'toolkit-missing',
    toolkits,
    message: `case ${caseName} names toolkit(s) ${toolkits.join(', ')} with no tool spec; left out of the prompt as upstream does`,
  });
}

/** The agent's reply budget (PrivAct's `max_tokens`), which bounds the action the judges read. */
const AGENT_MAX_OUTPUT_TOKENS = 1000;

/**
 * PrivacyLens (Shao et al., 2024), privacylens-confaide.md Part A: the agent sees a user
 * instruction and a past tool-use trajectory holding sensitive information, and must write the next
 * (final) action; a `judge` model decides, item by item, whether the action leaks, and rates its
 * helpfulness. Scenarios are the case names (`main1` …); epochs are PrivAct's K samples.
 */
export const privacylensSuite = defineSuite<PrivacyLensCase, PrivacyLensOutput, PrivacyLensOptions>({
  id: 'privacylens',
  version: 1,
  description: 'PrivacyLens: does an agent leak sensitive items from its trajectory in its final tool action?',
  taskKind: 'final-action',
  options: privacyLensOptionsSchema,
  upstreamOptions: PRIVACYLENS_UPSTREAM_OPTIONS,
  flags: [
    { flag: '--split', key: 'split' },
    { flag: '--subset', key: 'subset' },
  ],
  // Role-chain stages (generator, verifier, …) fall back to `agent`, so `agent` covers them.
  roles: () => ({ required: ['agent', 'judge'], optional: [] }),
  defaultSettings: (_options, { epochs }) => ({
    agent: { temperature: epochs > 1 ? 1 : 0, maxOutputTokens: AGENT_MAX_OUTPUT_TOKENS },
    judge: { maxOutputTokens: 1000, stop: ['\n\n---'] },
  }),
  dataset: {
    name: 'privacylens',
    files: ({ dataDir, options }) => [join(dataDir, 'privacylens', SUBSET_FILES[options.subset])],
    load: async ({ dataDir, options }) =>
      loadCases({
        datasetDir: requireDatasetFiles({ dataDir, name: 'privacylens', files: [SUBSET_FILES[options.subset]] }),
        subset: options.subset,
        split: options.split,
      }),
    id: (privacyCase) => privacyCase.name,
  },

  async solve({ sample, scenario, options, models, defenses, emit }): Promise<SampleOutcome<PrivacyLensOutput>> {
    const { prompt, missingToolkits } = buildAgentPrompt({ privacyCase: scenario, layout: options.promptLayout });
    warnToolkitMissing({ emit, toolkits: missingToolkits, caseName: scenario.name });
    const answer = await answerTaskPrompt({ prompt, defenses, models, emit, sampleOrdinal: sample.epoch - 1 });
    const mode = resolvePostprocess({ option: options.postprocess, defenses });
    const { trajectory, seed } = scenario;
    const output: PrivacyLensOutput = {
      raw: answer.text,
      postprocess: mode,
      ...parseAction({
        raw: answer.text,
        mode,
        llamaHeader: options.llamaHeader,
        finalAction: trajectory.final_action,
      }),
      stages: answer.stages,
      missingToolkits,
      case: {
        source: seed.source,
        finalAction: trajectory.final_action,
        toolkits: trajectory.toolkits,
        sensitiveItems: trajectory.sensitive_info_items,
      },
    };
    return {
      output,
      input: {
        messages: prompt.render(),
        promptTemplate: { id: agentPromptTemplate.id, version: agentPromptTemplate.version },
      },
      ...(output.action === null ? { terminationReason: 'no-action' } : {}),
    };
  },

  scorers: [privacyLensScorer],

  // One answer, then (when it holds an action) one leak judgment per sensitive item and one helpfulness judgment.
  callPattern: ({ scenario, options }) => {
    const tokens = estimateTokens(
      buildAgentPrompt({ privacyCase: scenario, layout: options.promptLayout }).prompt.render(),
    );
    return [
      { role: 'agent', answer: true, count: exactly(1), inputTokens: { min: tokens, max: tokens } },
      ...plannedJudgeCalls({
        privacyCase: scenario,
        protocol: options.judgeProtocol,
        answers: 1,
        actionTokens: AGENT_MAX_OUTPUT_TOKENS,
      }),
    ];
  },
  metrics: {
    compute: ({ records, options, breakdowns }) =>
      privacyLensMetrics({ records, options, ...(breakdowns === undefined ? {} : { breakdowns }) }),
    scenarioStatistics: (options) => privacyLensScenarioStatistics(options),
    definitions: PRIVACYLENS_METRIC_DEFINITIONS,
  },
  // PrivAct's privacy–helpfulness table.
  report: { headline: ['leak_rate', 'leak_at_k', 'helpfulness', 'helpfulness_binary'], charts: privacyLensCharts },
});
