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
  /** Upper bound on a server's `Retry-After` hint (default 10 min), against absurd values. */
  maxRetryAfterMs?: number;
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

/**
 * The wait before retry number `retry` (0-based): the server's hint when it gave one,
 * else exponential backoff with jitter, capped.
 */
export function retryDelayMs(options: {
  retry: number;
  retryAfterMs: number | undefined;
  policy?: RetryOptions;
  random?: () => number;
}): number {
  const policy = options.policy ?? {};
  if (options.retryAfterMs !== undefined) return Math.min(options.retryAfterMs, policy.maxRetryAfterMs ?? 600_000);
  const nominal = Math.min(
    policy.maxDelayMs ?? 60_000,
    (policy.initialDelayMs ?? 2_000) * (policy.factor ?? 2) ** options.retry,
  );
  const random = options.random ?? Math.random;
  return nominal * (0.5 + random() / 2);
}

/**
 * Retries `rate-limit` and `transient` provider errors with exponential backoff (2 s, ×2,
 * capped at 60 s, jittered) or the server's `Retry-After`; `deterministic` errors and
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
  const retrying = async <Result>(signal: AbortSignal | undefined, attempt: () => Promise<Result>): Promise<Result> => {
    for (let retry = 0; ; retry++) {
      signal?.throwIfAborted();
      try {
        const result = await attempt();
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
    wrapGenerate: ({ request, context, next }) => retrying(request.abortSignal ?? context.signal, () => next(request)),
    wrapEmbed: ({ request, context, next }) => retrying(request.abortSignal ?? context.signal, () => next(request)),
  };
}
