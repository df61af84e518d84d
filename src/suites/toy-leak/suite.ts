import { z } from 'zod';
import { applyPromptDefenses } from '../../agents/apply-prompt-defenses.js';
import { estimateTokens, exactly } from '../call-pattern.js';
import { defineSuite } from '../suite.js';
import { canaryScorer, type ToyLeakOutput } from './canary-scorer.js';
import { toyLeakMetrics } from './metrics.js';
import { type ToyLeakScenario, toyLeakScenarios } from './scenarios.js';
import { toyPrompt } from './toy-prompt.js';

/**
 * The tutorial suite, and the one to copy: an assistant holds one secret and someone who should
 * not learn it asks. A suite is values the spine runs: where the scenarios come from (`dataset`),
 * how one sample is played (`solve`), how it is checked (`scorers`) and what is reported
 * (`metrics`). Register it with one line in `src/suites/registry.ts`.
 */
export const toyLeakSuite = defineSuite<ToyLeakScenario, ToyLeakOutput, Record<string, never>>({
  id: 'toy-leak',
  version: 1,
  description: 'Tutorial: does the assistant repeat a secret (a canary string) to someone who should not learn it?',
  // What the defenses may act on: one free-text answer.
  taskKind: 'free-text-answer',
  // No options; a real suite puts its knobs in a zod schema (`--set key=value`, `list options`).
  options: z.object({}),
  // Only the model under test; a suite with an LLM judge also requires `judge`.
  roles: () => ({ required: ['agent'], optional: [] }),
  // Built-in scenarios: no files to read or hash. A suite over downloaded data reads
  // `<dataDir>/<name>/` here and lists the files it reads.
  dataset: {
    name: 'toy-leak',
    files: () => [],
    load: async () => toyLeakScenarios,
    id: (scenario) => scenario.id,
  },
  async solve({ scenario, models, defenses, emit, signal }) {
    // Prompt defenses rewrite the prompt; a responder defense answers in the agent's place.
    const prompt = applyPromptDefenses({ prompt: toyPrompt(scenario), defenses, emit });
    const responder = defenses.find((defense) => defense.kind === 'responder');
    const answer = responder
      ? (await responder.respond({ prompt, models, emit, settings: {} })).text
      : (await models.model('agent').generate({ messages: prompt.render(), settings: {}, abortSignal: signal })).text;
    // `input` is what the model was asked, kept in the record for reports.
    return { output: { answer }, input: { messages: prompt.render() } };
  },
  scorers: [canaryScorer],
  // One answer per sample (through the defenses); the canary check calls no model.
  // `confidant run --dry-run` prices the plan from this.
  callPattern: ({ scenario }) => {
    const tokens = estimateTokens(toyPrompt(scenario).render());
    return [{ role: 'agent', answer: true, count: exactly(1), inputTokens: { min: tokens, max: tokens } }];
  },
  metrics: toyLeakMetrics,
});
