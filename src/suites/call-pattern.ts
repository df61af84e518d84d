import type { Message } from '../spec/message.js';
import type { SampleSpec } from './suite.js';

/**
 * How many model calls something makes. `expected` is the count when every reply parses at
 * once and the sample runs its usual course (`null` when even that depends on what the model
 * does, e.g. when a conversation ends); the count is never below `min` and never above `max`
 * (`null`: no bound is known before the run).
 */
export type CallCount = { min: number; expected: number | null; max: number | null };

/** A range of tokens per call. */
export type TokenRange = { min: number; max: number };

/**
 * One kind of model call a sample makes, as a suite plans it (`Suite.callPattern`). Counts are
 * per model of the role: a role bound to several models (a judge ensemble) gets `count` calls on
 * each, unless `spec` names the one model these calls go to (a seat of a PAC model grid, the
 * first judge of an early-stop check).
 */
export type PlannedCalls = {
  /** The role asked (its fallbacks apply as in a run: `generator` → `agent`, …). */
  role: string;
  /** The one model (a spec bound to `role`) these calls go to, when not every model of the role. */
  spec?: string;
  count: CallCount;
  /** Input tokens per call when the suite can estimate them cheaply (see {@link estimateTokens}). */
  inputTokens?: TokenRange;
  /** Largest reply per call when the suite sets it itself (else the role's `maxOutputTokens`). */
  maxOutputTokens?: number;
  /**
   * Calls of role `agent` that answer the task through the defenses (`answerTaskPrompt`): a
   * responder defense (`chain:G>V>R`, `aifc`) turns each into its own roles' calls.
   */
  answer?: boolean;
};

/** What a suite's `callPattern` is told about one sample. */
export type CallPatternContext<Scenario, Options> = {
  sample: SampleSpec;
  scenario: Scenario;
  options: Options;
  /** The specs that answer `role` in this plan (its own bindings, else its fallback's), in flag order. */
  bound(role: string): readonly string[];
};

/** Characters per token assumed by every estimate (a common rule of thumb for English text). */
export const CHARS_PER_TOKEN = 4;

/** Estimated tokens of a text or of rendered messages: characters ÷ {@link CHARS_PER_TOKEN}, rounded up. */
export function estimateTokens(input: string | readonly Message[]): number {
  const text = typeof input === 'string' ? input : input.map((message) => message.content).join('\n');
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Exactly `n` calls. */
export const exactly = (n: number): CallCount => ({ min: n, expected: n, max: n });

/** One judgment of one judge model: one call, up to `1 + retries` when replies do not parse. */
export const judgment = (retries: number): CallCount => ({ min: 1, expected: 1, max: 1 + retries });

/** `count` repeated `factor` times (e.g. one judgment per sensitive item). */
export function times(count: CallCount, factor: number): CallCount {
  return product(count, exactly(factor));
}

/** `count` for each of `repeats` (e.g. one judgment per round of a conversation that runs 1–10 rounds). */
export function product(count: CallCount, repeats: CallCount): CallCount {
  return {
    min: count.min * repeats.min,
    expected: count.expected === null || repeats.expected === null ? null : count.expected * repeats.expected,
    max: count.max === null || repeats.max === null ? null : count.max * repeats.max,
  };
}

/** The sum of several counts (a `null` expected or max makes the sum's `null`). */
export function sumCounts(counts: readonly CallCount[]): CallCount {
  return counts.reduce(
    (total, count) => ({
      min: total.min + count.min,
      expected: total.expected === null || count.expected === null ? null : total.expected + count.expected,
      max: total.max === null || count.max === null ? null : total.max + count.max,
    }),
    exactly(0),
  );
}
