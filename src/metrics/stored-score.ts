import { causeOfStoredError } from '../models/error-cause-of.js';
import { causeLabel } from '../spec/error-cause.js';
import type { SampleRecord } from '../spec/run-record.js';
import type { Score } from '../spec/score.js';
import { type ScoreTarget, sameScoreTarget } from '../spec/score-target.js';

/** Why a record failed, in words (`connection refused http://…`); undefined when it did not fail. */
export function failureCause(record: SampleRecord): string | undefined {
  if (record.status !== 'error' || record.error === undefined) return undefined;
  return causeLabel(record.error.cause ?? causeOfStoredError(record.error));
}

/**
 * The score `scorer` gave a record that ran (the first one, or the one for `target`). A record
 * that failed, or holds no such score, gets an `error` score explained by its failure (else by
 * `missing`): metrics then count it in `errors`, never as a pass, and a metric left without a value
 * can say why.
 */
export function storedScore({
  record,
  scorer,
  target,
  missing,
}: {
  record: SampleRecord;
  scorer: string;
  target?: ScoreTarget;
  /** The explanation when the record did not fail but has no such score. */
  missing: string;
}): Score {
  const found =
    record.status === 'ok'
      ? record.scores.find(
          (score) => score.scorer === scorer && (target === undefined || sameScoreTarget(score.target, target)),
        )
      : undefined;
  if (found !== undefined) return found;
  return {
    scorer,
    ...(target === undefined ? {} : { target }),
    verdict: 'error',
    value: null,
    explanation: failureCause(record) ?? missing,
  };
}
