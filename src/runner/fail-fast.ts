import { causeKey, causeLabel, type ErrorCause } from '../spec/error-cause.js';
import type { SampleRecord } from '../spec/run-record.js';
import { isProviderCause, recordFailureOf } from './sample-failures.js';

/** The error rate is judged only once this many samples finished in the session. */
export const FAIL_FAST_MIN_SAMPLES = 20;

/** When a run stops early because it is failing (`--fail-fast`, `--max-error-rate`). */
export type FailFastOptions = {
  /** Stop once this many samples in a row failed with the same provider cause; 0 never stops. */
  consecutive: number;
  /** Stop once more than this share of the session's samples failed (from `minSamples` on); 1 never stops. */
  maxErrorRate: number;
  minSamples?: number;
};

/** Why fail-fast stopped a run, with the sentence the CLI prints. */
export type FailFastStop = {
  rule: 'consecutive' | 'error-rate';
  /** The repeated cause (`consecutive`) or the most common one (`error-rate`). */
  cause: ErrorCause | undefined;
  /** Failed and finished samples of this session when it stopped. */
  failed: number;
  finished: number;
  message: string;
};

const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;

/**
 * Watches the samples of one session as they finish (in completion order) and says when the run
 * should stop: `consecutive` samples in a row (the first ones included) failed with the same
 * provider cause (a dead endpoint, a bad key), or, once `minSamples` finished, more than
 * `maxErrorRate` of them failed. A failure is an errored sample or one with a failed judge call.
 * Samples recorded before the session (resume) do not count: the user may just have fixed the cause.
 */
export function createFailFast({ consecutive, maxErrorRate, minSamples = FAIL_FAST_MIN_SAMPLES }: FailFastOptions): {
  observe(record: SampleRecord): FailFastStop | undefined;
} {
  let finished = 0;
  let failed = 0;
  let streak: { key: string; cause: ErrorCause; count: number; fromStart: boolean } | undefined;
  const causeCounts = new Map<string, { cause: ErrorCause; count: number }>();
  return {
    observe(record) {
      finished += 1;
      const failure = recordFailureOf(record);
      if (failure.kind === 'ok') {
        streak = undefined;
      } else {
        failed += 1;
        const key = causeKey(failure.cause);
        const counted = causeCounts.get(key) ?? { cause: failure.cause, count: 0 };
        counted.count += 1;
        causeCounts.set(key, counted);
        if (!isProviderCause(failure.cause)) streak = undefined;
        else if (streak?.key === key) streak.count += 1;
        else streak = { key, cause: failure.cause, count: 1, fromStart: finished === 1 };
      }
      if (consecutive > 0 && streak !== undefined && streak.count >= consecutive) {
        const who = streak.fromStart ? `the first ${streak.count} samples` : `${streak.count} samples in a row`;
        return {
          rule: 'consecutive',
          cause: streak.cause,
          failed,
          finished,
          message: `${who} failed with the same cause: ${causeLabel(streak.cause)}`,
        };
      }
      if (finished >= minSamples && failed / finished > maxErrorRate) {
        const top = [...causeCounts.values()].sort((a, b) => b.count - a.count)[0];
        return {
          rule: 'error-rate',
          cause: top?.cause,
          failed,
          finished,
          message: `${failed} of ${finished} samples failed (${percent(failed / finished)}, over --max-error-rate ${percent(maxErrorRate)})${top === undefined ? '' : `; most common cause: ${causeLabel(top.cause)} ×${top.count}`}`,
        };
      }
      return undefined;
    },
  };
}
