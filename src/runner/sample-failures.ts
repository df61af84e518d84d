import { causeOfStoredError } from '../models/error-cause-of.js';
import type { ErrorCause } from '../spec/error-cause.js';
import type { JudgeCallEvent, ModelCallEvent, TranscriptEvent } from '../spec/event.js';
import type { Judgment, SampleRecord } from '../spec/run-record.js';
import { isModelCallEvent } from './aggregate-usage.js';

const UNKNOWN_MODEL = 'unknown';

function isJudgeCallEvent(event: TranscriptEvent): event is JudgeCallEvent {
  return event.type === 'judge-call';
}

/**
 * The sample's judge calls in brief, from its `judge-call` events in order. The model is the
 * event's own `model`, else that of the first model call it links to, else `unknown`; an `error`
 * verdict carries the event's `errorCause`, else a cause read from its error text.
 */
export function judgmentsFromEvents(events: readonly TranscriptEvent[]): Judgment[] {
  // Most samples have no judge call: no map of their model calls is built for them.
  if (!events.some(isJudgeCallEvent)) return [];
  const calls = new Map<string, ModelCallEvent>();
  for (const event of events) if (isModelCallEvent(event)) calls.set(event.id, event);
  return events.filter(isJudgeCallEvent).map((event) => {
    const linked = event.modelCallIds.map((id) => calls.get(id)).find((call) => call !== undefined);
    const model = event.model ?? (linked === undefined ? UNKNOWN_MODEL : `${linked.provider}:${linked.modelId}`);
    const judgment: Judgment = { judge: event.judge, model, verdict: event.verdict };
    if (event.verdict === 'error') {
      judgment.error =
        event.errorCause ?? causeOfStoredError({ name: 'JudgeError', message: event.error ?? 'the judgment failed' });
    }
    return judgment;
  });
}

/** The cause of an errored sample: the one stored with it, else one read from its name and message. */
export function sampleErrorCause(record: SampleRecord): ErrorCause | undefined {
  if (record.status !== 'error') return undefined;
  const error = record.error ?? { name: 'Error', message: 'the sample failed' };
  return error.cause ?? causeOfStoredError(error);
}

/** The sample's judge calls that ended in `error`, with their causes. */
export function failedJudgments(record: SampleRecord): Array<Judgment & { error: ErrorCause }> {
  return (record.judgments ?? []).flatMap((judgment) =>
    judgment.verdict === 'error' && judgment.error !== undefined ? [{ ...judgment, error: judgment.error }] : [],
  );
}

/**
 * The sample's scores that ended in `error` without a failed judge call behind them: a
 * deterministic scorer that could not score (a ConfAIde reply with no valid rating after every
 * re-ask, an unreadable PrivacyLens final action, a tied ensemble). Empty for an errored sample or
 * one with a failed judge call, whose failure is already counted under those. The cause is the
 * score's explanation, so equal failures group into one line.
 */
export function failedScores(record: SampleRecord): Array<{ scorer: string; error: ErrorCause }> {
  if (record.status === 'error' || failedJudgments(record).length > 0) return [];
  return record.scores.flatMap((score) =>
    score.verdict === 'error'
      ? [
          {
            scorer: score.scorer,
            error: { name: 'ScoreError', message: score.explanation ?? 'the scorer returned error' },
          },
        ]
      : [],
  );
}

/**
 * How a finished sample failed, if it did: `errored` (status error) with its cause,
 * `judge-errored` (it ran, but a judge call failed) with the first failed judgment's cause, or
 * `score-errored` (it ran, but a scorer could not score it) with the first failed score's cause.
 */
export type RecordFailure =
  | { kind: 'ok' }
  | { kind: 'errored'; cause: ErrorCause }
  | { kind: 'judge-errored'; cause: ErrorCause; judge: string }
  | { kind: 'score-errored'; cause: ErrorCause; scorer: string };

/** Classifies a finished sample (see {@link RecordFailure}). */
export function recordFailureOf(record: SampleRecord): RecordFailure {
  const cause = sampleErrorCause(record);
  if (cause !== undefined) return { kind: 'errored', cause };
  const [first] = failedJudgments(record);
  if (first !== undefined) return { kind: 'judge-errored', cause: first.error, judge: first.judge };
  const [score] = failedScores(record);
  return score === undefined ? { kind: 'ok' } : { kind: 'score-errored', cause: score.error, scorer: score.scorer };
}

/** Whether `resume --retry-errors` redoes the sample: it errored, a judge call failed or a scorer could not score it. */
export function needsRetry(record: SampleRecord): boolean {
  return recordFailureOf(record).kind !== 'ok';
}

/** A provider fault (refused connection, HTTP error, timeout): what fail-fast looks for. */
export function isProviderCause(cause: ErrorCause): boolean {
  return cause.name === 'ProviderError';
}
