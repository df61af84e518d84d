import { z } from 'zod';
import { PAC_POLICY_TYPES, PAC_SCENARIO_SPLITS } from './scenario-schema.js';

/** One tool call made during a turn (§6). `egress` marks writes under the shared root (§5.1). */
export const pacToolCallRecordSchema = z.looseObject({
  name: z.string().describe('tool name as the model saw it, e.g. filesystem_write_file'),
  input: z.unknown().describe('the parsed arguments'),
  resultText: z.string().describe('the tool result text the model received'),
  isError: z.boolean(),
  egress: z.boolean().describe('true for a write whose target is under the shared root'),
});

/** One delivered message: the turn output of one agent (§4, §6). */
export const pacMessageRecordSchema = z.looseObject({
  turn: z.int().positive().describe('global 1-based turn number'),
  agentId: z.string(),
  text: z.string().describe('the turn output with think blocks removed; what the partners received'),
  to: z
    .array(z.string())
    .optional()
    .describe(
      'N-party scenarios: the agent ids that received the message (absent in two-agent upstream runs: the partner); empty when it reached nobody',
    ),
  unknownRecipients: z
    .array(z.string())
    .optional()
    .describe(
      "names on the message's To: line that are no other agent of the scenario; they received nothing (absent when none)",
    ),
  modelCalls: z.int().nonnegative(),
  refusedToolCalls: z.int().nonnegative(),
  toolCalls: z.array(pacToolCallRecordSchema),
});

/**
 * How a run ended (§4 step 7). `both-fin` also names the N-agent rule (the last N messages, one
 * per agent, all contain [FIN]) and a standalone run's [FIN].
 */
export const PAC_TERMINATION_REASONS = ['both-fin', 'max-turns', 'error'] as const;
/** One of {@link PAC_TERMINATION_REASONS}. */
export type PacTerminationReason = (typeof PAC_TERMINATION_REASONS)[number];

/**
 * The output of one PAC sample (§6, plus `policyType`): the contract between the simulator,
 * which writes it, and the judges and metrics, which read it. Objects are loose so the simulator
 * may record more. An errored run keeps its partial transcript here.
 */
export const pacOutputSchema = z.looseObject({
  scenarioId: z.string(),
  split: z.enum(PAC_SCENARIO_SPLITS),
  policyType: z.enum(PAC_POLICY_TYPES),
  domain: z.string(),
  variant: z.string().describe('the variant id (variants.ts)'),
  seats: z
    .array(
      z.looseObject({
        agentId: z.string(),
        role: z.string().describe('the model role that filled the seat, e.g. agent-a'),
        modelId: z.string().describe('the model label used to group pairs, e.g. openai:gpt-5.1'),
      }),
    )
    .describe('one entry per seat in seat order; seats[0] is the initiator'),
  messages: z.array(pacMessageRecordSchema),
  terminationReason: z.enum(PAC_TERMINATION_REASONS),
  finalArtifact: z.looseObject({
    text: z.string().describe('the shared folder flattened for the judges (§5.4)'),
    files: z.array(
      z.looseObject({ path: z.string(), bytes: z.int().nonnegative(), lastWriter: z.string().nullable() }),
    ),
  }),
  milestones: z.array(z.looseObject({ turn: z.int(), agentId: z.string(), milestone: z.number() })),
});
/** Parsed {@link pacOutputSchema}. */
export type PacOutput = z.infer<typeof pacOutputSchema>;

/**
 * The part of a {@link PacOutput} the metrics read. Every field is optional so a partial output
 * (an errored run) still yields its seats and messages.
 */
export const pacOutputFactsSchema = z.looseObject({
  scenarioId: z.string().optional(),
  policyType: z.enum(PAC_POLICY_TYPES).optional(),
  domain: z.string().optional(),
  variant: z.string().optional(),
  seats: z.array(z.looseObject({ agentId: z.string(), modelId: z.string() })).optional(),
  messages: z
    .array(
      z.looseObject({
        turn: z.int(),
        agentId: z.string(),
        text: z.string(),
        to: z.array(z.string()).optional(),
        unknownRecipients: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  terminationReason: z.string().optional(),
});
/** Parsed {@link pacOutputFactsSchema}. */
export type PacOutputFacts = z.infer<typeof pacOutputFactsSchema>;
