import type { ModelMiddleware } from '../../spec/chat-model.js';
import { onAbort } from '../on-abort.js';
import { isRetryableProviderError } from '../provider-error.js';

/** Waits `ms` milliseconds; rejects with the signal's reason if it aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A real `setTimeout` sleep that honours an abort signal. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      stopListening?.();
      resolve();
    }, ms);
    const stopListening = signal
      ? onAbort(signal, () => {
          clearTimeout(timer);
          reject(signal.reason);
        })
      : undefined;
  });

/** Options of `retryMiddleware`; every default follows the documented policy. */
export type RetryOptions = {
  /** Retries after the first attempt (`--max-retries`, default 5; 0 disables retrying). */
  maxRetries?: number;
  /** First backoff (default 2 s). */
  initialDelayMs?: number;
  /** Growth per retry (default 2). */
  factor?: number;
  /** Backoff cap (default 60 s). */
  maxDelayMs?: number;
  /**
   * Upper bound on an obeyed `Retry-After` hint (`--max-retry-after`, default 2 min): a longer
   * hint is cut to it, against absurd values.
   */
  maxRetryAfterMs?: number;
  /**
   * The least wait before retry number `retry` when the server gave a hint: `minDelayMs × 2^retry`
   * (default 250 ms, doubling, capped at `maxDelayMs`, jittered like the backoff). A shorter hint,
   * `Retry-After: 0` included, is raised to it, so a server that keeps answering "retry now" under
   * sustained 429s cannot make a call burn its retries in a few milliseconds.
   */
  minDelayMs?: number;
  /**
   * Retries of an `unreachable` error (refused connection, unknown host), at most `maxRetries`
   * (default 2): a server that is down stays down longer than any backoff worth waiting for.
   */
  unreachableRetries?: number;
  /** First wait before retrying an `unreachable` error (default 500 ms, doubling). */
  unreachableDelayMs?: number;
  sleep?: Sleep;
  /** Jitter source in [0, 1); the backoff is scaled into [50 %, 100 %] of its nominal value. */
  random?: () => number;
};

/** Default cap on an obeyed `Retry-After` (`--max-retry-after`): 2 minutes. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 120_000;

/**
 * The wait before retry number `retry` (0-based): the server's hint when it gave one (capped at
 * `maxRetryAfterMs`, and raised to the jittered floor `minDelayMs × 2^retry`), else exponential
 * backoff with jitter, capped.
 */
export function retryDelayMs(options: {
  retry: number;
  retryAfterMs: number | undefined;
  policy?: RetryOptions;
  random?: () => number;
}): number {
  const policy = options.policy ?? {};
  const random = options.random ?? Math.random;
  const jittered = (initial: number) =>
    Math.min(policy.maxDelayMs ?? 60_000, initial * (policy.factor ?? 2) ** options.retry) * (0.5 + random() / 2);
  if (options.retryAfterMs !== undefined) {
    const hint = Math.min(options.retryAfterMs, policy.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS);
    return Math.max(hint, jittered(policy.minDelayMs ?? 250));
  }
  return jittered(policy.initialDelayMs ?? 2_000);
}

/**
 * Retries `rate-limit` and `transient` provider errors with exponential backoff (2 s, ×2,
 * capped at 60 s, jittered) or the server's `Retry-After` (at least 250 ms doubling, at most
 * `maxRetryAfterMs`; the rate-limit layer below queues a retry ahead of new work on its
 * endpoint); `deterministic` errors and
 * anything that is not a `ProviderError` pass straight through. When retries run out the
 * last error is rethrown. Aborting the call's signal stops the wait at once.
 *
 * An `unreachable` error (nothing listens) is retried at most `unreachableRetries` times (default
 * 2) after 0.5 s, 1 s. Once a whole call has failed that way, the model is known to be down: later
 * calls that fail unreachable are not retried at all until a call succeeds again, so a dead server
 * costs a second for the first call and nothing for the rest, never minutes per sample.
 */
export function retryMiddleware(options: RetryOptions = {}): ModelMiddleware {
  const maxRetries = options.maxRetries ?? 5;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new RangeError(`maxRetries must be an integer ≥ 0, got ${maxRetries}`);
  }
  const unreachableRetries = Math.min(maxRetries, options.unreachableRetries ?? 2);
  const unreachableDelayMs = options.unreachableDelayMs ?? 500;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  // Shared by every call of this model: set once a call ran out of retries on an unreachable server.
  let knownDown = false;
  // The request and `next` are passed along rather than captured in a closure per call.
  const retrying = async <Request, Result>(
    signal: AbortSignal | undefined,
    next: (request: Request) => Promise<Result>,
    request: Request,
  ): Promise<Result> => {
    for (let retry = 0; ; retry++) {
      signal?.throwIfAborted();
      try {
        const result = await next(request);
        knownDown = false;
        return result;
      } catch (error) {
        if (!isRetryableProviderError(error)) throw error;
        if (error.kind === 'unreachable') {
          if (knownDown || retry >= unreachableRetries) {
            knownDown = true;
            throw error;
          }
          signal?.throwIfAborted();
          await sleep(unreachableDelayMs * 2 ** retry, signal);
          continue;
        }
        if (retry >= maxRetries) throw error;
        signal?.throwIfAborted();
        await sleep(retryDelayMs({ retry, retryAfterMs: error.retryAfterMs, policy: options, random }), signal);
      }
    }
  };
  return {
    id: 'retry',
    wrapGenerate: ({ request, context, next }) => retrying(request.abortSignal ?? context.signal, next, request),
    wrapEmbed: ({ request, context, next }) => retrying(request.abortSignal ?? context.signal, next, request),
  };
}
