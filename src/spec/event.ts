import { z } from 'zod';
import { errorCauseSchema } from './error-cause.js';
import { messageSchema, toolCallSchema } from './message.js';

const base = {
  id: z.string(),
  time: z.string(),
  participantId: z.string().optional(),
};

const usageSchema = z.object({
  inputTokens: z.number().nullable(),
  outputTokens: z.number().nullable(),
  reasoningTokens: z.number().nullable().optional(),
});

/** One model call as seen by the caller: after cache, retries and rate limiting. */
export const modelCallEventSchema = z.object({
  ...base,
  type: z.literal('model-call'),
  role: z.string(),
  provider: z.string(),
  modelId: z.string(),
  request: z.object({
    messages: z.array(messageSchema),
    tools: z.array(z.object({ name: z.string() }).passthrough()).optional(),
    settings: z.record(z.string(), z.unknown()),
    sampleOrdinal: z.number().optional(),
  }),
  response: z
    .object({
      text: z.string(),
      toolCalls: z.array(toolCallSchema),
      finishReason: z.string(),
    })
    .nullable(),
  usage: usageSchema,
  costUsd: z.number().nullable(),
  cached: z.boolean(),
  attempts: z.number(),
  durationMs: z.number(),
  error: z.object({ name: z.string(), message: z.string() }).optional(),
});

export const judgeCallEventSchema = z.object({
  ...base,
  type: z.literal('judge-call'),
  judge: z.string(),
  target: z.string().optional(),
  prompt: z.string(),
  raw: z.string().nullable(),
  parsed: z.unknown().optional(),
  verdict: z.enum(['pass', 'fail', 'not-applicable', 'error']),
  error: z.string().optional(),
  /** The grouping form of `error` (see `ErrorCause`); absent in records written before it existed. */
  errorCause: errorCauseSchema.optional(),
  /** The judge model, `<provider>:<modelId>`; absent in records written before it existed. */
  model: z.string().optional(),
  modelCallIds: z.array(z.string()),
});

const genericEvent = <T extends string>(type: T) =>
  z
    .object({
      ...base,
      type: z.literal(type),
    })
    .passthrough();

/** Every event stored in a sample record. Types are noun-verb names. */
export const transcriptEventSchema = z.discriminatedUnion('type', [
  modelCallEventSchema,
  judgeCallEventSchema,
  genericEvent('sample-start'),
  genericEvent('message-deliver'),
  genericEvent('tool-call'),
  genericEvent('tool-result'),
  genericEvent('tool-refuse'),
  genericEvent('retrieval-query'),
  genericEvent('defense-action'),
  genericEvent('snapshot-take'),
  genericEvent('turn-end'),
  genericEvent('sample-error'),
  genericEvent('parse-retry'),
  genericEvent('toolkit-missing'),
]);

export type ModelCallEvent = z.infer<typeof modelCallEventSchema>;
export type JudgeCallEvent = z.infer<typeof judgeCallEventSchema>;
export type TranscriptEvent = z.infer<typeof transcriptEventSchema>;
export type TranscriptEventType = TranscriptEvent['type'];

/** An event before the store gives it an id and a time. */
export type TranscriptEventInput =
  | Omit<ModelCallEvent, 'id' | 'time'>
  | Omit<JudgeCallEvent, 'id' | 'time'>
  | ({ type: Exclude<TranscriptEventType, 'model-call' | 'judge-call'>; participantId?: string } & Record<
      string,
      unknown
    >);
