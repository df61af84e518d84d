import { z } from 'zod';

/**
 * Why something failed, in a form that groups: the error's name, its message normalised (numbers
 * that vary per call, credentials and control characters removed; network codes in words) and,
 * for provider faults, the endpoint that failed (credentials stripped). Two failures with the same
 * cause have the same `causeKey`, so a thousand refused connections are one line on screen.
 */
export const errorCauseSchema = z.object({
  name: z.string(),
  message: z.string(),
  endpoint: z.string().optional(),
});
export type ErrorCause = z.infer<typeof errorCauseSchema>;

/** One cause and how often it occurred, with one sample where it did (summary.json `errorCauses`). */
export const errorCauseCountSchema = errorCauseSchema.extend({
  /**
   * `sample`: a sample that errored; `judge`: a judge call whose verdict is `error`; `score`: a
   * score in `error` with no failed judge call behind it (a deterministic scorer that could not score).
   */
  kind: z.enum(['sample', 'judge', 'score']),
  /** For judge causes: the judge (`<template id>@<version>`); for score causes: the scorer. */
  judge: z.string().optional(),
  count: z.number(),
  exampleSampleId: z.string(),
});
export type ErrorCauseCount = z.infer<typeof errorCauseCountSchema>;

/**
 * Who failed, for display: `judge <id>` for a judge cause, `scorer <id>` for a score cause,
 * undefined for a sample cause (the sample itself).
 */
export function causeSource(cause: Pick<ErrorCauseCount, 'kind' | 'judge'>): string | undefined {
  if (cause.kind === 'sample') return undefined;
  return `${cause.kind === 'judge' ? 'judge' : 'scorer'} ${cause.judge ?? ''}`;
}

/** The grouping key of a cause: equal keys mean the same failure. */
export function causeKey(cause: ErrorCause): string {
  return `${cause.name}\u0000${cause.message}\u0000${cause.endpoint ?? ''}`;
}

/**
 * The cause in a few words for people: the message, then the endpoint when it is not already in
 * the message (`connection refused http://127.0.0.1:8000/v1`). The error name is added only when
 * the message does not start with it and it says more than `Error`.
 */
export function causeLabel(cause: ErrorCause): string {
  const generic =
    cause.name === 'Error' ||
    cause.name === 'ProviderError' ||
    cause.name === 'ScoreError' ||
    cause.message.startsWith(cause.name);
  const text = generic ? cause.message : `${cause.name}: ${cause.message}`;
  return cause.endpoint === undefined || text.includes(cause.endpoint) ? text : `${text} ${cause.endpoint}`;
}
