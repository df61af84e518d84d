import { z } from 'zod';
import { errorCauseSchema } from './error-cause.js';
import { lazySchema } from './lazy-schema.js';
import { messageSchema, toolCallSchema } from './message.js';

const base = {
  id: z.string(),
  time: z.string(),
  participantId: z.string().optional(),
  /**
   * The run this event was copied from by `rescore` (the source's transcript, replayed so the
   * rescored record shows it); such an event is not a call or an action of this run.
   */
  replayedFrom: z.string().optional(),
};

const usageSchema = lazySchema(() =>
  z.object({
    inputTokens: z.number().nullable(),
    outputTokens: z.number().nullable(),
    reasoningTokens: z.number().nullable().optional(),
  }),
);

/** One model call as seen by the caller: after cache, retries and rate limiting. */
export const modelCallEventSchema = lazySchema(() =>
  z.object({
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
  }),
);

/**
 * One embedding call as seen by the caller (after cache, retries and rate limiting): how many
 * texts of how many characters went to which embedding model, and what it cost. The texts and
 * vectors themselves are not stored (a retrieval index embeds whole documents).
 */
export const embeddingCallEventSchema = lazySchema(() =>
  z.object({
    ...base,
    type: z.literal('embedding-call'),
    role: z.string(),
    provider: z.string(),
    modelId: z.string(),
    /** The embedder's id (model and settings; see `EmbeddingModel.id`). */
    embedderId: z.string(),
    dimension: z.number(),
    /** The number of texts embedded. */
    texts: z.number(),
    /** Their total length in characters. */
    characters: z.number(),
    usage: z.object({ inputTokens: z.number().nullable() }),
    costUsd: z.number().nullable(),
    cached: z.boolean(),
    attempts: z.number(),
    durationMs: z.number(),
    error: z.object({ name: z.string(), message: z.string() }).optional(),
  }),
);

export const judgeCallEventSchema = lazySchema(() =>
  z.object({
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
  }),
);

/** An event type whose known fields are typed; fields added later are kept (`looseObject`). */
const eventOf = <T extends string, Shape extends z.ZodRawShape>(type: T, shape: Shape) =>
  z.looseObject({ ...base, type: z.literal(type), ...shape });

/** A sample starts: the first event of every sample record. */
export const sampleStartEventSchema = lazySchema(() =>
  eventOf('sample-start', {
    sampleId: z.string(),
    scenarioId: z.string().optional(),
    variant: z.record(z.string(), z.string()).optional(),
    epoch: z.number().optional(),
    attempt: z.number().optional(),
  }),
);

/** A participant's message is delivered to others (`to`: one id or several). */
export const messageDeliverEventSchema = lazySchema(() =>
  eventOf('message-deliver', {
    to: z.union([z.string(), z.array(z.string())]),
    /** Names the sender addressed that are no participant (they received nothing). */
    unknownRecipients: z.array(z.string()).optional(),
    text: z.string(),
    turn: z.number().optional(),
    round: z.number().optional(),
  }),
);

const toolEventShape = { turn: z.number().optional(), toolCallId: z.string(), name: z.string() };

/** An agent calls a tool (before it runs). */
export const toolCallEventSchema = lazySchema(() => eventOf('tool-call', { ...toolEventShape, input: z.unknown() }));

/** A tool call's result as the agent sees it. */
export const toolResultEventSchema = lazySchema(() =>
  eventOf('tool-result', {
    ...toolEventShape,
    content: z.string(),
    isError: z.boolean(),
    kind: z.string().optional(),
    egress: z.boolean().optional(),
    attempts: z.number().optional(),
  }),
);

/** A tool call refused before it ran (e.g. the per-turn tool limit). */
export const toolRefuseEventSchema = lazySchema(() =>
  eventOf('tool-refuse', {
    ...toolEventShape,
    input: z.unknown(),
    reason: z.string(),
  }),
);

/** A retrieval query and what it returned or withheld. */
export const retrievalQueryEventSchema = lazySchema(() =>
  eventOf('retrieval-query', {
    query: z.string(),
    k: z.number(),
    round: z.number().optional(),
  }),
);

/** What a defense did: let through, blocked, rewrote or filtered, and why. */
export const defenseActionEventSchema = lazySchema(() =>
  eventOf('defense-action', {
    defense: z.string(),
    action: z.enum(['allow', 'block', 'rewrite', 'filter']),
    reason: z.string(),
  }),
);

/** A snapshot of the environment after a participant's turn (PAC). */
export const snapshotTakeEventSchema = lazySchema(() =>
  eventOf('snapshot-take', {
    turn: z.number(),
    failed: z.boolean().optional(),
    changed: z.array(z.string()).optional(),
  }),
);

/** A participant's turn ends, with what it did. */
export const turnEndEventSchema = lazySchema(() =>
  eventOf('turn-end', {
    turn: z.number(),
    modelCalls: z.number().optional(),
    toolCalls: z.number().optional(),
    refusedToolCalls: z.number().optional(),
  }),
);

/** The sample failed: the error's name and message (its cause is in the record's `error`). */
export const sampleErrorEventSchema = lazySchema(() =>
  eventOf('sample-error', { name: z.string(), message: z.string() }),
);

/** A reply did not parse and is asked again (a judge's or a suite's). */
export const parseRetryEventSchema = lazySchema(() =>
  eventOf('parse-retry', {
    attempt: z.number(),
    sampleOrdinal: z.number().optional(),
    judge: z.string().optional(),
  }),
);

/**
 * A note from a suite about the sample that is neither an error nor a result (e.g. a case names
 * a toolkit with no tool spec); `code` names the kind of note for filtering.
 */
export const infoEventSchema = lazySchema(() => eventOf('info', { code: z.string(), message: z.string() }));

/** Written before suite notes became `info` events; read, never emitted. */
const toolkitMissingEventSchema = lazySchema(() => eventOf('toolkit-missing', { message: z.string().optional() }));

/** Every event stored in a sample record. Types are noun-verb names. */
export const transcriptEventSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    modelCallEventSchema,
    embeddingCallEventSchema,
    judgeCallEventSchema,
    sampleStartEventSchema,
    messageDeliverEventSchema,
    toolCallEventSchema,
    toolResultEventSchema,
    toolRefuseEventSchema,
    retrievalQueryEventSchema,
    defenseActionEventSchema,
    snapshotTakeEventSchema,
    turnEndEventSchema,
    sampleErrorEventSchema,
    parseRetryEventSchema,
    infoEventSchema,
    toolkitMissingEventSchema,
  ]),
);

export type ModelCallEvent = z.infer<typeof modelCallEventSchema>;
export type EmbeddingCallEvent = z.infer<typeof embeddingCallEventSchema>;
export type JudgeCallEvent = z.infer<typeof judgeCallEventSchema>;
export type TranscriptEvent = z.infer<typeof transcriptEventSchema>;
export type TranscriptEventType = TranscriptEvent['type'];

/** `Event` without the `id` and `time` the recorder stamps (its other fields, known and extra, kept). */
type Unstamped<Event> = { [Key in keyof Event as Exclude<Key, 'id' | 'time'>]: Event[Key] };

/** An event before the recorder gives it an id and a time: one member per event type, typed on its schema. */
export type TranscriptEventInput = TranscriptEvent extends infer Event
  ? Event extends TranscriptEvent
    ? Unstamped<Event>
    : never
  : never;
