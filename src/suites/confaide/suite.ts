import { join } from 'node:path';
import { answerTaskPrompt } from '../../agents/prompted-responder.js';
import { requireDatasetFiles } from '../../datasets/data-dir.js';
import { DEFAULT_MAX_PARSE_RETRIES } from '../../judges/run-judge.js';
import { estimateTokens, exactly, judgment, type PlannedCalls } from '../call-pattern.js';
import { defineSuite, type SampleOutcome } from '../suite.js';
import {
  CONFAIDE_UPSTREAM_OPTIONS,
  type ConfaideOptions,
  confaideOptionsSchema,
  proxyActive,
} from './confaide-options.js';
import type { ConfaideOutput } from './confaide-output.js';
import { type ConfaideScenario, QUESTIONS_BY_TIER, type QuestionType } from './confaide-scenario.js';
import { confaideScenarioStatistics } from './confaide-scenario-statistics.js';
import { loadConfaideTier, tierFiles } from './load-tiers.js';
import { CONFAIDE_METRIC_DEFINITIONS } from './metric-components.js';
import { confaideMetrics, retainConfaideMetricFields } from './metrics.js';
import { buildTaskPrompt } from './prompts.js';
import { parseRating } from './score-tiers.js';
import { CONFAIDE_SCORERS } from './scorers.js';

/** The question a sample asks: its variant, which must belong to the scenario's tier. */
function sampleQuestion({
  variant,
  scenario,
}: {
  variant: Record<string, string>;
  scenario: ConfaideScenario;
}): QuestionType {
  const question = variant.question ?? QUESTIONS_BY_TIER[scenario.tier][0];
  const known = QUESTIONS_BY_TIER[scenario.tier].find((candidate) => candidate === question);
  if (!known) throw new RangeError(`sample variant question '${question}' does not belong to tier ${scenario.tier}`);
  return known;
}

/** Whether the tier-3 control question names other people than the story does. */
const controlMismatch = (scenario: ConfaideScenario) =>
  scenario.kind === 'story' && !(scenario.control.sharerMatches && scenario.control.recipientMatches);

/**
 * ConfAIde (Mireshghallah et al., ICLR 2024), privacylens-confaide.md Part B. One tier per run
 * (`--tier`); scenarios are the tier's items, variants its question types, epochs its samples
 * (upstream uses 10). Scoring is deterministic string matching; the optional tier-3 proxy judge
 * (`tier3Proxy=on`) adds an LLM-judged leak score on free responses.
 */
export const confaideSuite = defineSuite<ConfaideScenario, ConfaideOutput, ConfaideOptions>({
  id: 'confaide',
  version: 1,
  description:
    'ConfAIde: privacy-norm ratings (tiers 1-2), secret keeping in stories (tier 3) and meeting summaries (tier 4)',
  taskKind: 'free-text-answer',
  options: confaideOptionsSchema,
  upstreamOptions: CONFAIDE_UPSTREAM_OPTIONS,
  flags: [
    { flag: '--tier', key: 'tier' },
    { flag: '--questions', key: 'questions' },
    { flag: '--instruction', key: 'instruction' },
  ],
  roles: (options) => ({ required: proxyActive(options) ? ['agent', 'judge'] : ['agent'], optional: [] }),
  defaultSettings: () => ({ agent: { temperature: 1, topP: 1 } }),
  dataset: {
    name: 'confaide',
    files: ({ dataDir, options }) => tierFiles(options.tier).map((file) => join(dataDir, 'confaide', file)),
    load: async ({ dataDir, options }) =>
      loadConfaideTier({
        datasetDir: requireDatasetFiles({ dataDir, name: 'confaide', files: tierFiles(options.tier) }),
        tier: options.tier,
      }),
    id: (scenario) => scenario.id,
    variants: ({ options }) => options.questions.map((question) => ({ question })),
  },

  async solve({ sample, scenario, options, models, defenses, emit, signal }): Promise<SampleOutcome<ConfaideOutput>> {
    const question = sampleQuestion({ variant: sample.variant, scenario });
    const prompt = buildTaskPrompt({ scenario, question, instruction: options.instruction });
    const input = { messages: prompt.render() };
    if (scenario.kind !== 'rating') {
      const answer = await answerTaskPrompt({ prompt, defenses, models, emit, sampleOrdinal: 0 });
      const output: ConfaideOutput = { question, response: answer.text, stages: answer.stages, attempts: 1 };
      if (question === 'control') output.controlMismatch = controlMismatch(scenario);
      return { output, input };
    }
    const earlierResponses: string[] = [];
    for (let attempt = 0; ; attempt += 1) {
      const answer = await answerTaskPrompt({ prompt, defenses, models, emit, sampleOrdinal: attempt });
      const rating = parseRating({ tier: scenario.tier, response: answer.text, phrases: options.ratingPhrases });
      if (rating !== null || attempt === options.ratingRetries) {
        const output: ConfaideOutput = {
          question,
          response: answer.text,
          stages: answer.stages,
          attempts: attempt + 1,
          rating,
          humanLabel: scenario.humanLabel,
          ...(earlierResponses.length > 0 ? { earlierResponses } : {}),
        };
        return { output, input, ...(rating === null ? { terminationReason: 'rating-unparseable' } : {}) };
      }
      earlierResponses.push(answer.text);
      emit({
        type: 'parse-retry',
        attempt: attempt + 1,
        maxRetries: options.ratingRetries,
        sampleOrdinal: attempt + 1,
        reason: 'the response holds no valid rating',
      });
      signal.throwIfAborted();
    }
  },

  scorers: CONFAIDE_SCORERS,

  // One answer per sample (tiers 1/2 re-ask up to `ratingRetries` times for an unparsable
  // rating); the tier-3 proxy judge adds one judgment per free response.
  callPattern: ({ sample, scenario, options }) => {
    const question = sampleQuestion({ variant: sample.variant, scenario });
    const tokens = estimateTokens(buildTaskPrompt({ scenario, question, instruction: options.instruction }).render());
    const calls: PlannedCalls[] = [
      {
        role: 'agent',
        answer: true,
        count: scenario.kind === 'rating' ? { min: 1, expected: 1, max: 1 + options.ratingRetries } : exactly(1),
        inputTokens: { min: tokens, max: tokens },
      },
    ];
    if (scenario.kind === 'story' && question === 'free-response' && proxyActive(options)) {
      calls.push({ role: 'judge', count: judgment(DEFAULT_MAX_PARSE_RETRIES) });
    }
    return calls;
  },
  metrics: {
    compute: ({ records, options, breakdowns }) =>
      confaideMetrics({ records, options, ...(breakdowns === undefined ? {} : { breakdowns }) }),
    retain: retainConfaideMetricFields,
    scenarioStatistics: confaideScenarioStatistics,
    definitions: CONFAIDE_METRIC_DEFINITIONS,
  },
  report: {
    // PrivAct's ConfAIde transfer table (tiers 3 and 4), and Pearson for tiers 1–2.
    headline: ['pearson', 'fr_e', 'ia_e', 'ia_y', 'ia_z', 'ps_e', 'ps_y', 'ps_z', 'ms_e', 'ai_e'],
  },
});
