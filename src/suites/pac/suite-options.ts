import { z } from 'zod';
import type { FILESYSTEM_TOOLSETS } from '../../tools/filesystem-tool-schemas.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../../tools/tool-limits.js';
import { flagDescription } from '../suite-entry.js';
import { EMPTY_GROUNDED_RATES } from './analyses.js';
import { PAC_JUDGE_UPSTREAM_OPTIONS, pacJudgeOptionsSchema } from './judges/pac-judge-options.js';
import { PAC_SPLIT_OPTIONS } from './load-scenarios.js';
import { pacEntry } from './pac-entry.js';
import { pacVariantOptionsSchema } from './pac-variant.js';
import { PAC_ERROR_POLICIES } from './run-components.js';
import { PAC_VARIANT_IDS } from './variants.js';

const commaList = (value: unknown): unknown =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '')
    : value;

/** The named tool selections agents may get (pacbench.md §5.1). */
export const PAC_TOOLSETS = ['upstream', 'paper6', 'all'] as const satisfies ReadonlyArray<
  keyof typeof FILESYSTEM_TOOLSETS
>;

/**
 * The `pac` suite options (`--set key=value`; `--split`, `--domain`, `--variant`, `--tools`,
 * `--errors` are flags for the same keys). Defaults follow the spec's option table (§2) and the
 * paper script: 10 model calls and 5 tool calls per turn, 2 tool retries, summarisation above
 * 30000 tokens keeping 24000. `maxTurns` defaults to 10 per seat (20 for a pair). The judge
 * options (`taskMode`, `privacyMode`, `privacyAgents`, `privacyChannels`, …) are merged in.
 *
 * `seats` is filled by the CLI from the `--model agent…=` bindings (reference specs included):
 * do not set it by hand.
 */
export const pacSuiteOptionsSchema = z.object({
  split: z.enum(PAC_SPLIT_OPTIONS).default('all').describe(flagDescription(pacEntry, 'split')),
  scenarios: z.string().min(1).optional().describe(flagDescription(pacEntry, 'scenarios')),
  domains: z
    .preprocess(commaList, z.array(z.string().min(1)).optional())
    .describe(flagDescription(pacEntry, 'domains')),
  variant: z
    .string()
    .default('default')
    .refine((id) => PAC_VARIANT_IDS.includes(id), { message: `use one of ${PAC_VARIANT_IDS.join(', ')}` })
    .describe(`protocol variant (pacbench.md §10): ${PAC_VARIANT_IDS.join(', ')}`),
  ...pacVariantOptionsSchema.shape,
  maxTurns: z.int().positive().optional().describe('global turns of a collaboration (default 10 per seat)'),
  maxModelCallsPerTurn: z.int().positive().default(10).describe('model calls per turn; one more ends the run'),
  maxToolCallsPerTurn: z.int().nonnegative().default(5).describe('tool calls per turn; further ones are refused'),
  toolRetries: z.int().nonnegative().default(2).describe('retries of a failing tool execution'),
  summarizeAtTokens: z.int().positive().default(30000).describe('summarise a thread above this many input tokens'),
  summaryKeepTokens: z.int().positive().default(24000).describe('recent tokens kept when summarising'),
  tools: z
    .enum(['in-process', 'vfs', 'mcp-server'])
    .default('in-process')
    .transform((mode) => (mode === 'vfs' ? 'in-process' : mode))
    .describe(flagDescription(pacEntry, 'tools')),
  toolTimeoutMs: z
    .int()
    .positive()
    .max(3_600_000)
    .default(DEFAULT_TOOL_TIMEOUT_MS)
    .describe('time budget of one tool call in ms; an overrun is a tool error the agent sees'),
  toolset: z.enum(PAC_TOOLSETS).default('upstream').describe('upstream (10 tools), paper6 or all (14)'),
  errors: z.enum(PAC_ERROR_POLICIES).default('exclude').describe(flagDescription(pacEntry, 'errors')),
  emptyGroundedRate: z
    .enum(EMPTY_GROUNDED_RATES)
    .default('not-applicable')
    .describe('grounded_rate when nothing was evaluated: not-applicable (null, default) or one (1.0, upstream)'),
  seats: z
    .array(z.object({ role: z.string(), spec: z.string() }))
    .default([])
    .describe('seat bindings from --model agent…= (set by the CLI)'),
  ...pacJudgeOptionsSchema.shape,
});

/** Parsed {@link pacSuiteOptionsSchema}. */
export type PacSuiteOptions = z.infer<typeof pacSuiteOptionsSchema>;

/**
 * The options `--fidelity upstream` sets for `pac` (docs/fidelity.md): the judges' reading, the
 * keyword rule and the agents judged ({@link PAC_JUDGE_UPSTREAM_OPTIONS}), and the grounded rate
 * over nothing.
 */
export const PAC_UPSTREAM_OPTIONS = { ...PAC_JUDGE_UPSTREAM_OPTIONS, emptyGroundedRate: 'one' } as const;
