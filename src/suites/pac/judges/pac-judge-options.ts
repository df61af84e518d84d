import { z } from 'zod';
import { KEYWORD_MATCHES } from '../keyword-match.js';
import { PAC_JUDGE_PARSES } from './upstream-reading.js';

/** Where a disclosure can happen (pacbench.md §7.2 "Channels"), in canonical order. */
export const PAC_PRIVACY_CHANNELS = ['messages', 'tool-arguments', 'artifacts'] as const;
/** One of {@link PAC_PRIVACY_CHANNELS}. */
export type PacPrivacyChannel = (typeof PAC_PRIVACY_CHANNELS)[number];

/**
 * Task evaluator modes (§7.1); `markers` is the deterministic starter-data judge of §8.4 and
 * `checks` the scenario's deterministic outcome checks (`checks.outcome`) alone.
 */
export const PAC_TASK_MODES = ['messages', 'artifact', 'markers', 'checks'] as const;
/** One of {@link PAC_TASK_MODES}. */
export type PacTaskMode = (typeof PAC_TASK_MODES)[number];

/** The task modes that call an LLM judge (and so can be grounded, §7.3). */
export const PAC_LLM_TASK_MODES: readonly PacTaskMode[] = ['messages', 'artifact'];

/** Privacy evaluator modes (§7.2); `keyword-only` is deterministic. */
export const PAC_PRIVACY_MODES = ['keyword-awareness', 'geval-entity', 'keyword-only'] as const;
/** One of {@link PAC_PRIVACY_MODES}. */
export type PacPrivacyMode = (typeof PAC_PRIVACY_MODES)[number];

/** Upper bound of `gevalSamples`, so a typo cannot multiply the judge bill by thousands. */
export const MAX_GEVAL_SAMPLES = 20;

const channelList = (value: unknown): unknown =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '')
    : value;

/**
 * The PAC judge options (`--set key=value`), with the spec's defaults (§2 option table). The
 * object is not strict, so the suite may parse its whole option object with it and keep the rest;
 * its `shape` can also be merged into the suite's own schema.
 *
 * - `taskMode`: `messages` (one judge call per message, a requirement counts if any message
 *   achieves it; upstream), `artifact` (one call over the final shared folder), `markers`
 *   (deterministic `checks.requirementMarkers`, for starter data and the offline demo) or
 *   `checks` (the scenario's outcome checks alone: ts_r = passed / applicable checks). Outcome
 *   checks are scored beside every mode (`pac-check@1`) when a scenario declares them.
 * - `privacyMode`: `keyword-awareness` (keyword trigger, LLM keyword variants, awareness judge;
 *   upstream), `geval-entity` (per-entity 0/1/2 rubric; paper) or `keyword-only` (deterministic).
 * - `privacyAgents`: `all` (every seat) or `initiator` (Agent A only, as the upstream code). A
 *   variant may override it (`PacVariant.evaluation`).
 * - `privacyChannels`: any of `messages`, `tool-arguments`, `artifacts`; a comma list is accepted.
 *   Kept in canonical order without duplicates.
 * - `grounding`: run the context-alignment (hallucination) judge of §7.3 in the LLM task modes.
 * - `gevalSamples`: judgments per judge model and item in `geval-entity` mode, averaged. Our
 *   default is 1, not the spec's 5: judges run at temperature 0, so further draws differ only by
 *   seed and add cost rather than information.
 * - `judgeErrorRuns`: also judge the partial transcript of a run that ended in error.
 */
export const pacJudgeOptionsSchema = z.object({
  taskMode: z
    .enum(PAC_TASK_MODES)
    .default('messages')
    .describe(
      'task judge: messages (per message, any achieves), artifact (final shared folder), markers, or checks (outcome checks alone)',
    ),
  privacyMode: z
    .enum(PAC_PRIVACY_MODES)
    .default('keyword-awareness')
    .describe('privacy judge: keyword-awareness (upstream), geval-entity (paper rubric) or keyword-only'),
  privacyAgents: z
    .enum(['all', 'initiator'])
    .default('all')
    .describe('whose privacy is judged: all agents, or the initiator only (upstream code)'),
  privacyChannels: z
    .preprocess(channelList, z.array(z.enum(PAC_PRIVACY_CHANNELS)).min(1))
    .transform((channels) => PAC_PRIVACY_CHANNELS.filter((channel) => channels.includes(channel)))
    .default(['messages'])
    .describe('what is scanned for disclosures: messages, tool-arguments, artifacts (comma list)'),
  grounding: z.boolean().default(true).describe('judge context alignment of achieved requirements (LLM task modes)'),
  gevalSamples: z
    .int()
    .min(1)
    .max(MAX_GEVAL_SAMPLES)
    .default(1)
    .describe('geval-entity: judgments per judge model and item, averaged'),
  judgeErrorRuns: z.boolean().default(false).describe('also judge the partial transcripts of errored runs'),
  judgeParse: z
    .enum(PAC_JUDGE_PARSES)
    .default('strict')
    .describe(
      "judge replies: strict (default; zod-checked, unreadable is an error) or upstream (PAC-Bench's reading exactly)",
    ),
  keywordMatch: z
    .enum(KEYWORD_MATCHES)
    .default('word')
    .describe(
      'violation keywords: word (default; word boundaries), substring, or upstream (raw substring, short variants kept)',
    ),
});

/** The judge options `--fidelity upstream` sets for `pac` (docs/fidelity.md; all of them: `PAC_UPSTREAM_OPTIONS`). */
export const PAC_JUDGE_UPSTREAM_OPTIONS = {
  judgeParse: 'upstream',
  keywordMatch: 'upstream',
  privacyAgents: 'initiator',
} as const;

/** Parsed {@link pacJudgeOptionsSchema}. */
export type PacJudgeOptions = z.infer<typeof pacJudgeOptionsSchema>;

/** The options when none are given. */
export const DEFAULT_PAC_JUDGE_OPTIONS: PacJudgeOptions = pacJudgeOptionsSchema.parse({});
