import { z } from 'zod';
import { errorCauseOf } from '../models/error-cause-of.js';
import { extractReasoning } from '../models/middleware/extract-reasoning-middleware.js';
import { PromptTemplateError } from '../prompts/prompt-template-error.js';
import { parseStructuredReply } from '../prompts/structured-reply.js';
import type { BoundModel, EmitEvent, GenerateRequest, GenerateResult, GenerateSettings } from '../spec/chat-model.js';
import type { ErrorCause } from '../spec/error-cause.js';
import { JudgeParseError, stopsRun } from '../spec/errors.js';
import { verdictSchema } from '../spec/score.js';
import { formatScoreTarget, type ScoreTarget } from '../spec/score-target.js';
import { DEFAULT_ANSWER_MARKER } from './answer-marker.js';
import { assertJudgeDefinition, type JudgeDefinition, type JudgedOutcome, type JudgeOutcome } from './judge.js';
import { judgeName } from './judge-template.js';
import { neutralize } from './neutralize.js';

/** Parse retries allowed after the first call, per the architecture (§4.9). */
export const DEFAULT_MAX_PARSE_RETRIES = 2;

/**
 * Where a model wrapper may put the id of the `model-call` event it emitted for a call:
 * `result.providerMetadata.confidant.modelCallEventId`. `runJudge` copies any such ids into
 * the judge-call event's `modelCallIds`; when the wrapper does not provide them the list is
 * empty, and the model-call events can still be matched to the judge-call by order and prompt.
 */
export const MODEL_CALL_EVENT_METADATA_KEY = 'confidant';

/** The result of one judgment. Never thrown for provider faults or bad replies: those give `verdict: 'error'`. */
export type JudgeResult<T> = JudgedOutcome<T> & {
  /** `<template id>@<version>`. */
  judge: string;
  /** The last reply text received (null when no call returned). */
  raw: string | null;
  /** Model calls made (1 + parse retries used). */
  attempts: number;
  /** Id of the one `judge-call` event emitted for this judgment. */
  judgeCallId: string;
  /** `[judgeCallId]`; the same shape as an ensemble result, for `toScore`. */
  judgeCallIds: string[];
  modelCallIds: string[];
};

/** Options of `runJudge`. */
export type RunJudgeOptions<T> = {
  judge: JudgeDefinition<T>;
  /** Untrusted slot values (agent replies, tool output, dataset text): each is passed through `neutralize`. */
  slots: Readonly<Record<string, string>>;
  /** Slot values we wrote ourselves (instructions, rubric text): inserted as they are. */
  trustedSlots?: Readonly<Record<string, string>>;
  /** The `judge`-role model. */
  model: BoundModel;
  emit: EmitEvent;
  /** What is judged within the sample (an item, an agent); its text is copied into the event. */
  target?: ScoreTarget;
  /**
   * Extra calls allowed when a reply does not parse (default: the judge's own `maxParseRetries`,
   * else 2); each uses a new `sampleOrdinal`.
   */
  maxParseRetries?: number;
  /** Caller settings such as `seed`; they override the judge's own, and temperature stays 0. */
  settings?: Omit<GenerateSettings, 'temperature'>;
  signal?: AbortSignal;
};

/** A parsed reply, or why it did not parse. */
export type Parsed<T> = { ok: true; parsed: T } | { ok: false; error: JudgeParseError };

/**
 * Runs one LLM judgment and records it.
 *
 * Renders the template with the untrusted slots neutralised (including the template's own
 * answer marker), sends it as one user message at temperature 0, and parses the reply
 * (`json`: the first JSON object, fenced or not, validated by the zod schema; `answer-line`:
 * the definition's parser). Reasoning blocks such as `<think>…</think>` are removed before
 * parsing. A reply that does not parse is retried with the same prompt and `sampleOrdinal`
 * 1, 2, … (the first call uses 0), so cached replies do not repeat; each retry is announced
 * by a `parse-retry` event. After `maxParseRetries` retries the verdict is `error`, never a pass,
 * unless the judge names an `unparsedOutcome` (an upstream scorer's fallback).
 *
 * A provider fault (the model's `generate` throws) also gives `error`, with the message, and is
 * not retried here (the model wrapper already retried). Faults that must stop the run are
 * re-thrown: an aborted `signal`, `AbortError`, `BudgetExceededError` and `RunInterruptedError`.
 * Template problems (missing or extra slots, a definition that does not fit its template) throw
 * `PromptTemplateError` before any model call.
 *
 * Emits exactly one `judge-call` event per judgment with the rendered prompt, the last raw reply,
 * the parsed value, the verdict and any error. Its `modelCallIds` come from
 * `providerMetadata.confidant.modelCallEventId` when the model wrapper sets it, else `[]`.
 */
export async function runJudge<T>({
  judge,
  slots,
  trustedSlots = {},
  model,
  emit,
  target,
  maxParseRetries = judge.maxParseRetries ?? DEFAULT_MAX_PARSE_RETRIES,
  settings,
  signal,
}: RunJudgeOptions<T>): Promise<JudgeResult<T>> {
  assertJudgeDefinition(judge);
  if (!Number.isInteger(maxParseRetries) || maxParseRetries < 0) {
    throw new RangeError(`maxParseRetries must be a non-negative integer, got ${maxParseRetries}`);
  }
  const { template } = judge;
  const name = judgeName(template);
  const prompt = template.render(mergeSlots({ name, slots, trustedSlots, answerMarker: template.answerPattern }));
  const baseRequest: GenerateRequest = {
    messages: [{ role: 'user', content: prompt }],
    settings: { ...judge.settings, ...settings, temperature: 0 },
    ...(judge.structuredOutput === true ? { responseSchema: responseSchemaOf(judge) } : {}),
    ...(judge.exampleReplies === undefined ? {} : { judgeReplies: judge.exampleReplies }),
    // The reply as written, for the record (`raw`); reasoning is taken out below, by the same rule.
    inlineReasoning: 'keep',
    ...(signal === undefined ? {} : { abortSignal: signal }),
  };

  const modelCallIds: string[] = [];
  let raw: string | null = null;
  let attempts = 0;
  let lastParseError: JudgeParseError | undefined;

  const finish = ({ errorCause, ...outcome }: JudgedOutcome<T> & { errorCause?: ErrorCause }): JudgeResult<T> => {
    const cause =
      errorCause ?? (outcome.error === undefined ? undefined : { name: 'JudgeError', message: outcome.error });
    const event = emit({
      type: 'judge-call',
      judge: name,
      ...(target === undefined ? {} : { target: formatScoreTarget(target) }),
      prompt,
      raw,
      ...(outcome.parsed === undefined ? {} : { parsed: outcome.parsed }),
      verdict: outcome.verdict,
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
      ...(cause === undefined || outcome.verdict !== 'error' ? {} : { errorCause: cause }),
      model: `${model.provider}:${model.modelId}`,
      modelCallIds: [...modelCallIds],
    });
    return { judge: name, ...outcome, raw, attempts, judgeCallId: event.id, judgeCallIds: [event.id], modelCallIds };
  };

  for (let sampleOrdinal = 0; sampleOrdinal <= maxParseRetries; sampleOrdinal += 1) {
    let reply: GenerateResult;
    attempts += 1;
    try {
      reply = await model.generate({ ...baseRequest, sampleOrdinal });
    } catch (error) {
      if (stopsRun(error, signal)) throw error;
      return finish({
        verdict: 'error',
        value: null,
        error: `model call failed: ${describeError(error)}`,
        errorCause: errorCauseOf(error),
      });
    }
    const modelCallId = modelCallIdOf(reply);
    if (modelCallId !== undefined) modelCallIds.push(modelCallId);
    raw = reply.text;

    const parsed = parseReply(judge, judge.inlineReasoning === 'keep' ? reply.text : extractReasoning(reply.text).text);
    if (parsed.ok) return finish({ ...settleReply(judge, parsed.parsed), parsed: parsed.parsed });
    lastParseError = parsed.error;
    if (sampleOrdinal < maxParseRetries) {
      emit({
        type: 'parse-retry',
        judge: name,
        ...(target === undefined ? {} : { target: formatScoreTarget(target) }),
        attempt: attempts,
        sampleOrdinal,
        error: parsed.error.message,
        raw: reply.text,
      });
    }
  }
  const failure = `the reply did not parse after ${attempts} attempt(s): ${lastParseError?.message ?? 'unknown'}`;
  if (judge.unparsedOutcome !== undefined) {
    const { explanation, ...fallback } = judge.unparsedOutcome;
    return finish({ ...fallback, explanation: explanation === undefined ? failure : `${explanation}: ${failure}` });
  }
  return finish({
    verdict: 'error',
    value: null,
    error: `JudgeParseError: ${failure}`,
    errorCause: errorCauseOf(lastParseError ?? new JudgeParseError('the reply did not parse')),
  });
}

function mergeSlots({
  name,
  slots,
  trustedSlots,
  answerMarker,
}: {
  name: string;
  slots: Readonly<Record<string, string>>;
  trustedSlots: Readonly<Record<string, string>>;
  answerMarker: string | undefined;
}): Record<string, string> {
  const both = Object.keys(slots).filter((key) => Object.hasOwn(trustedSlots, key));
  if (both.length > 0) {
    throw new PromptTemplateError(`judge ${name}: slot(s) ${both.join(', ')} given as both trusted and untrusted`);
  }
  const extraMarkers = [answerMarker ?? DEFAULT_ANSWER_MARKER];
  const merged: Record<string, string> = { ...trustedSlots };
  for (const [key, value] of Object.entries(slots)) {
    merged[key] = typeof value === 'string' ? neutralize(value, { extraMarkers }) : value;
  }
  return merged;
}

/**
 * Parses one reply's answer as `runJudge` does (the zod schema for `json`, the definition's parser
 * for `answer-line`); a reply that does not parse gives the `JudgeParseError`. `runJudge` passes
 * the reply with its inline reasoning taken out (`extractReasoning`) unless the judge keeps it.
 */
export function parseReply<T>(judge: JudgeDefinition<T>, text: string): Parsed<T> {
  const { template } = judge;
  if (judge.schema !== undefined && judge.readReply !== undefined) {
    const checked = judge.schema.safeParse(judge.readReply(text));
    if (checked.success) return { ok: true, parsed: checked.data };
    const issues = checked.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    return {
      ok: false,
      error: new JudgeParseError(`the reply does not match output '${template.output}': ${issues.join('; ')}`),
    };
  }
  if (judge.schema !== undefined) {
    const reply = parseStructuredReply({ text, schema: judge.schema });
    if (reply.ok) return { ok: true, parsed: reply.value };
    if (reply.problem === 'no-json-object') {
      return { ok: false, error: new JudgeParseError('no JSON object found in the reply') };
    }
    return {
      ok: false,
      error: new JudgeParseError(
        `the JSON object does not match output '${template.output}': ${reply.issues.join('; ')}`,
      ),
    };
  }
  let parsed: T | null;
  try {
    parsed = judge.parseAnswer(text);
  } catch (error) {
    return { ok: false, error: new JudgeParseError(`the answer parser threw: ${describeError(error)}`) };
  }
  if (parsed === null || parsed === undefined) {
    const marker = template.answerPattern ?? DEFAULT_ANSWER_MARKER;
    const labels = template.labels === undefined ? '' : ` with one of: ${template.labels.join(', ')}`;
    return { ok: false, error: new JudgeParseError(`no valid '${marker}' line${labels} in the reply`) };
  }
  return { ok: true, parsed };
}

/** Turns a parsed reply into the judgment `runJudge` records, checking what `toVerdict` returned. */
export function settleReply<T>(judge: JudgeDefinition<T>, parsed: T): JudgedOutcome {
  let outcome: JudgeOutcome;
  try {
    outcome = judge.toVerdict(parsed);
  } catch (error) {
    return { verdict: 'error', value: null, error: `toVerdict threw: ${describeError(error)}` };
  }
  const verdict = verdictSchema.safeParse(outcome.verdict);
  if (!verdict.success) {
    return {
      verdict: 'error',
      value: null,
      error: `toVerdict returned an unknown verdict '${String(outcome.verdict)}'`,
    };
  }
  const details = {
    ...(outcome.label === undefined ? {} : { label: outcome.label }),
    ...(outcome.explanation === undefined ? {} : { explanation: outcome.explanation }),
  };
  if (verdict.data === 'pass' || verdict.data === 'fail') {
    if (typeof outcome.value !== 'number' || !Number.isFinite(outcome.value)) {
      return {
        verdict: 'error',
        value: null,
        ...details,
        error: `toVerdict returned '${verdict.data}' without a finite numeric value`,
      };
    }
    return { verdict: verdict.data, value: outcome.value, ...details };
  }
  return { verdict: verdict.data, value: null, ...details };
}

function responseSchemaOf<T>(judge: JudgeDefinition<T>): { name: string; jsonSchema: object } {
  const { template, schema } = judge;
  if (schema === undefined)
    throw new PromptTemplateError(`judge ${judgeName(template)}: structured output needs a schema`);
  try {
    return { name: template.output, jsonSchema: z.toJSONSchema(schema) };
  } catch (error) {
    throw new PromptTemplateError(
      `judge ${judgeName(template)}: its schema cannot be expressed as JSON Schema for structured output; ` +
        'turn structuredOutput off or simplify the schema',
      { cause: error },
    );
  }
}

function modelCallIdOf(reply: GenerateResult): string | undefined {
  const meta = reply.providerMetadata?.[MODEL_CALL_EVENT_METADATA_KEY];
  if (typeof meta !== 'object' || meta === null) return undefined;
  const id = (meta as Record<string, unknown>).modelCallEventId;
  return typeof id === 'string' ? id : undefined;
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
