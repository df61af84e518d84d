import { z } from 'zod';
import { PlanValidationError } from '../../spec/errors.js';
import { flagDescription } from '../suite-entry.js';
import {
  type ProbersPerSecret,
  type ProbeStrategy,
  parseProbersPerSecret,
  parseStrategies,
} from './expand-conversations.js';
import { type Chunking, parseChunking } from './knowledge-base.js';
import { privacybenchEntry } from './privacybench-entry.js';

/** The judges a run may use (`--set judges=…`): the LLM leak judge, the LLM persona judge, the deterministic canary check. */
export const PRIVACYBENCH_JUDGES = ['leak', 'persona', 'canary'] as const;
/** One of {@link PRIVACYBENCH_JUDGES}. */
export type PrivacyBenchJudgeId = (typeof PRIVACYBENCH_JUDGES)[number];

/** `--set community=starter` (the default) names the committed starter community. */
export const STARTER_COMMUNITY = 'starter';

const onOff = (value: unknown) => (value === true ? 'on' : value === false ? 'off' : value);
const text = (value: unknown) => (typeof value === 'number' ? String(value) : value);

function parsed<T>(parse: (value: string) => T) {
  return (value: string, context: z.RefinementCtx): T => {
    try {
      return parse(value);
    } catch (error) {
      context.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
      return z.NEVER;
    }
  };
}

function parseJudgeList(value: string): PrivacyBenchJudgeId[] {
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const known = parts.filter((part): part is PrivacyBenchJudgeId =>
    (PRIVACYBENCH_JUDGES as readonly string[]).includes(part),
  );
  if (parts.length === 0 || known.length !== parts.length || new Set(known).size !== known.length) {
    throw new PlanValidationError(
      `judges must list some of ${PRIVACYBENCH_JUDGES.join(', ')} once each (e.g. leak,persona,canary), got '${value}'`,
    );
  }
  if (!known.includes('leak') && !known.includes('canary')) {
    throw new PlanValidationError(
      `judges=${value} has nothing that decides whether a secret was revealed: include leak (LLM) or canary (deterministic)`,
    );
  }
  return known;
}

/** The `community` option, shared by the conversation suite and its calibration suite. */
export const communityOption = z
  .string()
  .min(1)
  .default(STARTER_COMMUNITY)
  .describe(flagDescription(privacybenchEntry, 'community'));

/**
 * PrivacyBench options (`--set key=value`; `--community` and `--strategy` are flag sugar). Every
 * default is the spec's recommended one (privacybench.md §12) and each alternative is one `--set`
 * away. `rounds` and `retrieval` are accepted as aliases of `maxRounds` and `retriever`.
 */
export const privacyBenchOptionsSchema = z
  .object({
    community: communityOption,
    strategies: z
      .preprocess(text, z.string())
      .default('direct,indirect')
      .transform(parsed<ProbeStrategy[]>(parseStrategies))
      .describe(flagDescription(privacybenchEntry, 'strategies')),
    probersPerSecret: z
      .preprocess(text, z.string())
      .default('1,1')
      .transform(parsed<ProbersPerSecret>(parseProbersPerSecret))
      .describe('<authorized>,<unauthorized> probers drawn per secret (default 1,1)'),
    proberSeed: z.int().default(0).describe('seed of the prober draws (default 0)'),
    conversationTime: z
      .enum(['timeline-end', 'after-last-share'])
      .default('timeline-end')
      .describe("the conversation's now: timeline-end (default) or one day after the secret's last sharing"),
    groupConfidants: z
      .enum(['members-at-share', 'current-members'])
      .default('members-at-share')
      .describe('who a group secret authorizes: members when it was shared (default) or at conversation time'),
    chunking: z
      .string()
      .default('message')
      .transform(parsed<Chunking>(parseChunking))
      .describe('chat chunking: message (default) or window:<n>'),
    dateFilter: z
      .preprocess(onOff, z.enum(['on', 'off']))
      .default('on')
      .describe('index only chunks dated at or before the conversation time (default on)'),
    topK: z.int().positive().default(5).describe('chunks retrieved per turn (default 5)'),
    queryWindow: z.int().positive().default(3).describe('last messages that form the retrieval query (default 3)'),
    retriever: z
      .enum(['bm25', 'vector'])
      .optional()
      .describe("bm25 (default, SQLite FTS5) or vector (exact cosine search over the embedder role's vectors)"),
    retrieval: z.enum(['bm25', 'vector']).optional().describe('alias of retriever'),
    embedder: z
      .string()
      .min(1)
      .optional()
      .describe(
        'embedder spec for retriever=vector, e.g. hashing:384 (offline): binds the embedder role (not together with --model embedder=<spec>)',
      ),
    framing: z
      .enum(['digital-twin', 'third-person'])
      .default('digital-twin')
      .describe('the assistant speaks as its user (default) or as their assistant about them'),
    maxRounds: z.int().positive().optional().describe('prober+assistant rounds per conversation (default 10)'),
    rounds: z.int().positive().optional().describe('alias of maxRounds'),
    earlyStop: z
      .preprocess(onOff, z.enum(['on', 'off']))
      .default('on')
      .describe('stop a conversation once the first judge says the secret was revealed (default on)'),
    earlyStopJudge: z
      .enum(['first', 'ensemble'])
      .default('first')
      .describe('who decides the early stop: the first judge model (default) or the whole panel'),
    judges: z
      .preprocess(text, z.string())
      .default('leak,persona,canary')
      .transform(parsed<PrivacyBenchJudgeId[]>(parseJudgeList))
      .describe('judges in use: leak, persona (LLM) and canary (deterministic); canary alone needs no judge model'),
    judgeProtocol: z
      .enum(['json', 'answer-line'])
      .default('json')
      .describe('leak judge reply: json (default, zod-checked) or answer-line (Answer: Yes/No)'),
    irrMode: z
      .enum(['provenance', 'content'])
      .default('provenance')
      .describe('IRR counts chunks tagged with an unauthorized secret (default), or also chunks quoting one'),
    pcScope: z
      .enum(['all', 'unauthorized'])
      .default('all')
      .describe('conversations the persona judge scores: all (default) or unauthorized only'),
  })
  .strict()
  .superRefine((options, context) => {
    const clash = (a: keyof typeof options, b: keyof typeof options) => {
      if (options[a] !== undefined && options[b] !== undefined && options[a] !== options[b]) {
        context.addIssue({ code: 'custom', path: [b], message: `${b} is an alias of ${a}; give only one of them` });
      }
    };
    clash('maxRounds', 'rounds');
    clash('retriever', 'retrieval');
  });

/** Parsed {@link privacyBenchOptionsSchema}. */
export type PrivacyBenchOptions = z.infer<typeof privacyBenchOptionsSchema>;

/** The option values the suite code reads, with aliases folded in and defaults applied. */
export type ResolvedPrivacyBenchOptions = Omit<
  PrivacyBenchOptions,
  'rounds' | 'retrieval' | 'maxRounds' | 'retriever'
> & {
  maxRounds: number;
  retriever: 'bm25' | 'vector';
};

/** Default number of rounds (privacybench.md §6: up to 10 prober+assistant pairs). */
export const DEFAULT_MAX_ROUNDS = 10;

/** Folds `rounds`/`retrieval` into `maxRounds`/`retriever` and applies their defaults. */
export function resolveOptions(options: PrivacyBenchOptions): ResolvedPrivacyBenchOptions {
  const { rounds, retrieval, maxRounds, retriever, ...rest } = options;
  return {
    ...rest,
    maxRounds: maxRounds ?? rounds ?? DEFAULT_MAX_ROUNDS,
    retriever: retriever ?? retrieval ?? 'bm25',
  };
}

/**
 * Whether the run needs the `embedder` role: vector retrieval (`retriever` or its alias
 * `retrieval`). An `--set embedder=<spec>` binds the role (`prepareRun`), it does not replace it.
 */
export function needsEmbedderRole(options: Pick<PrivacyBenchOptions, 'retriever' | 'retrieval'>): boolean {
  return (options.retriever ?? options.retrieval ?? 'bm25') === 'vector';
}

/** Whether any judge in use calls the `judge` role (only the canary check does not). */
export function usesJudgeModel(options: Pick<PrivacyBenchOptions, 'judges'>): boolean {
  return options.judges.some((judge) => judge !== 'canary');
}
