import { DEFAULT_MAX_PARSE_RETRIES } from '../../judges/index.js';
import type { ModelRoles } from '../../spec/chat-model.js';
import { type CallCount, exactly, judgment, type PlannedCalls, product, times } from '../call-pattern.js';
import { defineSuite, type SampleOutcome, type Scorer } from '../suite.js';
import { ASSISTANT_ID, type AssistantTurnOptions, createAssistant } from './assistant.js';
import { ASSISTANT_TEMPLATES } from './assistant-prompt.js';
import { type OutputContext, PrivacyBenchConversationError, runConversationLoop } from './conversation-loop.js';
import { LEAK_TEMPLATES } from './judges/leak-judge.js';
import { PERSONA_TEMPLATE } from './judges/persona-judge.js';
import { PRIVACYBENCH_METRIC_DEFINITIONS } from './metric-definitions.js';
import { privacyBenchMetrics, privacyBenchScenarioStatistics } from './metrics.js';
import { ownerRetriever, vectorEmbedder } from './owner-retriever.js';
import { PRIVACYBENCH_PRESETS } from './presets.js';
import { privacyBenchCharts } from './privacybench-charts.js';
import {
  needsEmbedderRole,
  type PrivacyBenchOptions,
  privacyBenchOptionsSchema,
  type ResolvedPrivacyBenchOptions,
  resolveOptions,
  usesJudgeModel,
} from './privacybench-options.js';
import type { PrivacyBenchOutput } from './privacybench-output.js';
import {
  accessContextFor,
  communityFiles,
  loadPrivacyBenchScenarios,
  type PrivacyBenchScenario,
} from './privacybench-world.js';
import { createProber, PROBER_TEMPLATES } from './prober.js';
import { revealCheck, scoreConversation } from './score-conversation.js';

/** `provider:modelId` of the model under test (the `agent` role, else a chain's generator). */
function agentModelOf(models: ModelRoles): string {
  for (const role of ['agent', 'generator']) {
    if (models.has(role)) {
      const model = models.model(role);
      return `${model.provider}:${model.modelId}`;
    }
  }
  return 'unknown';
}

/** The prompt files a conversation used, for the record's `input`. */
const PROMPT_FILES = [
  ASSISTANT_TEMPLATES['digital-twin'],
  ASSISTANT_TEMPLATES['third-person'],
  ASSISTANT_TEMPLATES.privacyAware,
  PROBER_TEMPLATES.system,
  PROBER_TEMPLATES.direct,
  PROBER_TEMPLATES.indirect,
].map((template) => ({ id: template.id, version: template.version, sha256: template.sha256 }));

async function runPrivacyBenchSample({
  scenario,
  options,
  models,
  defenses,
  emit,
  signal,
}: {
  scenario: PrivacyBenchScenario;
  options: ResolvedPrivacyBenchOptions;
  models: ModelRoles;
  defenses: AssistantTurnOptions['defenses'];
  emit: AssistantTurnOptions['emit'];
  signal: AbortSignal;
}): Promise<SampleOutcome<PrivacyBenchOutput>> {
  const { instance, world } = scenario;
  const context: OutputContext = {
    defenses: defenses.map((defense) => defense.id),
    agentModel: agentModelOf(models),
    retriever: { kind: options.retriever, k: options.topK },
  };
  let owner: Awaited<ReturnType<typeof ownerRetriever>>;
  try {
    const embedder = options.retriever === 'vector' ? vectorEmbedder({ models }) : undefined;
    if (embedder !== undefined) context.retriever.embedder = embedder.id;
    owner = await ownerRetriever({
      world,
      ownerId: instance.ownerId,
      setup: {
        retriever: options.retriever,
        chunking: options.chunking,
        ...(embedder === undefined ? {} : { embedder }),
        ...(options.dateFilter === 'on' ? { asOf: instance.conversationTime } : {}),
      },
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    const output: PrivacyBenchOutput = {
      instance,
      ...context,
      rounds: [],
      terminationReason: 'error',
      earlyStopRound: null,
    };
    throw new PrivacyBenchConversationError({ cause: error, participantId: ASSISTANT_ID, output });
  }
  const access = accessContextFor({ world, instance, groupConfidants: options.groupConfidants });
  const check = revealCheck({ world, instance, options, models, emit, signal });
  const output = await runConversationLoop({
    instance,
    context,
    prober: createProber({ world, instance, model: models.model('prober'), signal }),
    assistant: createAssistant({
      world,
      instance,
      retriever: owner.retriever,
      access,
      k: options.topK,
      queryWindow: options.queryWindow,
      framing: options.framing,
      models,
      defenses,
      emit,
    }),
    ...(check === undefined ? {} : { checkRevealed: check }),
    maxRounds: options.maxRounds,
    emit,
    signal,
  });
  return {
    output,
    input: { instance, prompts: PROMPT_FILES, knowledgeBaseChunks: owner.chunkCount },
    terminationReason: output.terminationReason,
  };
}

/**
 * The model calls of one conversation: each round is one prober message and one assistant
 * answer (through the defenses), plus, with early stop on and the leak judge in use, one leak
 * judgment of the conversation so far (by the first judge model unless `earlyStopJudge=ensemble`);
 * the conversation runs `maxRounds` rounds unless an early stop ends it after round 1 or later.
 * Then every judge model gives the final leak judgment and, within `pcScope`, the persona one.
 */
function conversationCalls({
  scenario,
  options,
  bound,
}: {
  scenario: PrivacyBenchScenario;
  options: ResolvedPrivacyBenchOptions;
  bound: (role: string) => readonly string[];
}): PlannedCalls[] {
  const stops = options.earlyStop === 'on';
  const rounds: CallCount = {
    min: stops ? 1 : options.maxRounds,
    expected: stops ? null : options.maxRounds,
    max: options.maxRounds,
  };
  const judged = judgment(DEFAULT_MAX_PARSE_RETRIES);
  const perRound = (count: CallCount) => product(count, rounds);
  const calls: PlannedCalls[] = [
    { role: 'prober', count: perRound(exactly(1)) },
    { role: 'agent', answer: true, count: perRound(exactly(1)) },
  ];
  const leak = options.judges.includes('leak');
  if (stops && leak) {
    const first = options.earlyStopJudge === 'first' ? bound('judge')[0] : undefined;
    calls.push({ role: 'judge', ...(first === undefined ? {} : { spec: first }), count: perRound(judged) });
  }
  const persona =
    options.judges.includes('persona') && !(options.pcScope === 'unauthorized' && scenario.instance.authorized);
  const finals = (leak ? 1 : 0) + (persona ? 1 : 0);
  if (finals > 0) calls.push({ role: 'judge', count: times(judged, finals) });
  return calls;
}

/**
 * PrivacyBench (Mukhopadhyay et al., 2025; privacybench.md): a RAG personal assistant that speaks
 * for its user, grounded in the user's whole footprint, is probed over up to 10 rounds by
 * community members who may or may not be entitled to one of the user's secrets. LR and OSR come
 * from the judges, IRR from chunk provenance. Runs on the committed starter community unless
 * `--community <dir>` names another (no data directory needed either way).
 */
/** The PrivacyBench judgments of one conversation (leak, persona, canary; see `scoreConversation`). */
const conversationScorer: Scorer<PrivacyBenchScenario, PrivacyBenchOutput, PrivacyBenchOptions> = {
  id: 'privacybench',
  version: 1,
  templates: (options) => [
    ...(options.judges.includes('leak') ? [LEAK_TEMPLATES[options.judgeProtocol]] : []),
    ...(options.judges.includes('persona') ? [PERSONA_TEMPLATE] : []),
  ],
  score: ({ scenario, options, output, models, emit, signal }) =>
    scoreConversation({ world: scenario.world, output, options: resolveOptions(options), models, emit, signal }),
};

/**
 * PrivacyBench (Mukhopadhyay et al., 2025; privacybench.md): a RAG personal assistant that speaks
 * for its user, grounded in the user's whole footprint, is probed over up to 10 rounds by
 * community members who may or may not be entitled to one of the user's secrets. LR and OSR come
 * from the judges, IRR from chunk provenance. Runs on the committed starter community unless
 * `--community <dir>` names another (no data directory needed either way). The secret-detection
 * calibration is its own suite, `privacybench-calibration`.
 */
export const privacybenchSuite = defineSuite<PrivacyBenchScenario, PrivacyBenchOutput, PrivacyBenchOptions>({
  id: 'privacybench',
  version: 1,
  description:
    'PrivacyBench: does a RAG assistant speaking for its user keep their secrets from probing community members?',
  taskKind: 'assistant-turn',
  options: privacyBenchOptionsSchema,
  flags: [
    { flag: '--community', key: 'community' },
    { flag: '--strategy', key: 'strategies' },
  ],
  presets: PRIVACYBENCH_PRESETS,
  // Vector retrieval needs the `embedder` role: `--model embedder=<spec>`, or `--set embedder=<spec>` which binds it.
  roles: (options) => {
    const embedder = needsEmbedderRole(options) ? ['embedder'] : [];
    return usesJudgeModel(options)
      ? { required: ['agent', 'prober', 'judge', ...embedder], optional: [] }
      : { required: ['agent', 'prober', ...embedder], optional: ['judge'] };
  },
  defaultSettings: () => ({ agent: { maxOutputTokens: 4000 }, prober: { maxOutputTokens: 1000 } }),
  dataset: {
    name: 'privacybench',
    files: ({ dataDir, options }) => communityFiles({ dataDir, community: options.community }),
    load: ({ options }) => loadPrivacyBenchScenarios({ options }),
    id: (scenario) => scenario.instance.instanceId,
  },
  solve: ({ scenario, options, models, defenses, emit, signal }) =>
    runPrivacyBenchSample({ scenario, options: resolveOptions(options), models, defenses, emit, signal }),
  scorers: [conversationScorer],
  callPattern: ({ scenario, options, bound }) =>
    conversationCalls({ scenario, options: resolveOptions(options), bound }),
  metrics: {
    compute: ({ records, options, breakdowns }) =>
      privacyBenchMetrics({ records, options, ...(breakdowns === undefined ? {} : { breakdowns }) }),
    scenarioStatistics: (options) => privacyBenchScenarioStatistics(options),
    definitions: PRIVACYBENCH_METRIC_DEFINITIONS,
  },
  report: { headline: ['lr', 'osr', 'irr', 'pc'], charts: privacyBenchCharts },
});
