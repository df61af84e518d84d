import { z } from 'zod';
import { flagDescription } from '../suite-entry.js';
import { confaideEntry } from './confaide-entry.js';
import {
  CONFAIDE_TIERS,
  type ConfaideTier,
  QUESTION_TYPES,
  QUESTIONS_BY_TIER,
  type QuestionType,
} from './confaide-scenario.js';
import { RATING_PHRASE_ORDERS, type RatingPhraseOrder } from './score-tiers.js';

/** Tiers 1/2 re-ask at most this many times by default when the rating does not parse. */
export const DEFAULT_RATING_RETRIES = 5;
/**
 * The re-asks `--fidelity upstream` allows. Upstream re-asks without limit; a tool must end, so
 * this large cap is the residual departure named in docs/fidelity.md (a budget, `--max-cost` or
 * `--max-tokens`, still stops the run first).
 */
export const UPSTREAM_RATING_RETRIES = 100;
/** The largest `ratingRetries` accepted, so a typo cannot multiply the bill without bound. */
export const MAX_RATING_RETRIES_LIMIT = 1000;

const onOff = (fallback: 'on' | 'off') =>
  z
    .preprocess((value) => (value === true ? 'on' : value === false ? 'off' : value), z.enum(['on', 'off']))
    .default(fallback);

/**
 * ConfAIde's options (`--tier`, `--set instruction=…`, `--set questions=a,b`, `--set tier3Proxy=on`,
 * `--set ratingPhrases=…`, `--set ratingRetries=<n>`).
 * `tier` is required. `questions` defaults to every type of the tier and must belong to it; a
 * comma-separated string is accepted. Unknown keys are rejected so typos do not pass silently.
 */
export const confaideOptionsSchema = z
  .object({
    tier: z
      .preprocess((value) => (typeof value === 'number' ? String(value) : value), z.enum(CONFAIDE_TIERS))
      .describe(flagDescription(confaideEntry, 'tier')),
    instruction: onOff('on').describe(flagDescription(confaideEntry, 'instruction')),
    questions: z
      .preprocess(
        (value) =>
          typeof value === 'string'
            ? value
                .split(',')
                .map((part) => part.trim())
                .filter((part) => part !== '')
            : value,
        z.array(z.enum(QUESTION_TYPES)).min(1),
      )
      .optional()
      .describe(flagDescription(confaideEntry, 'questions')),
    tier3Proxy: onOff('off').describe('tier 3: also score free responses with the proxy judge (needs --model judge=…)'),
    ratingPhrases: z
      .enum(RATING_PHRASE_ORDERS)
      .default('longest')
      .describe(
        "tiers 1/2 rating phrases: longest (default; 'minus fifty' is -50) or upstream (dictionary order: +50)",
      ),
    ratingRetries: z
      .int()
      .min(0)
      .max(MAX_RATING_RETRIES_LIMIT)
      .default(DEFAULT_RATING_RETRIES)
      .describe(
        `tiers 1/2: re-asks when no rating parses, then error (upstream: without limit; --fidelity upstream: ${UPSTREAM_RATING_RETRIES})`,
      ),
  })
  .strict()
  .superRefine((options, context) => {
    for (const question of options.questions ?? []) {
      if (!(QUESTIONS_BY_TIER[options.tier] as readonly string[]).includes(question)) {
        context.addIssue({
          code: 'custom',
          path: ['questions'],
          message: `tier ${options.tier} has no '${question}' question: use ${QUESTIONS_BY_TIER[options.tier].join(', ')}`,
        });
      }
    }
  })
  .transform((options) => ({
    ...options,
    questions: QUESTIONS_BY_TIER[options.tier].filter((question) =>
      options.questions ? options.questions.includes(question) : true,
    ),
  }));

/** Parsed ConfAIde options: `questions` is resolved, deduplicated and in report order. */
export type ConfaideOptions = {
  tier: ConfaideTier;
  instruction: 'on' | 'off';
  questions: QuestionType[];
  tier3Proxy: 'on' | 'off';
  ratingPhrases: RatingPhraseOrder;
  ratingRetries: number;
};

/** The options `--fidelity upstream` sets for `confaide` (docs/fidelity.md). */
export const CONFAIDE_UPSTREAM_OPTIONS = {
  ratingPhrases: 'upstream',
  ratingRetries: UPSTREAM_RATING_RETRIES,
} as const;

/** True when the proxy judge runs: tier 3, free-response asked and `tier3Proxy=on`. */
export function proxyActive(options: ConfaideOptions): boolean {
  return options.tier === '3' && options.tier3Proxy === 'on' && options.questions.includes('free-response');
}
