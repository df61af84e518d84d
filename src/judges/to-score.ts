import { ConfidantError } from '../spec/errors.js';
import type { Score } from '../spec/score.js';
import type { ScoreTarget } from '../spec/score-target.js';
import type { JudgedOutcome } from './judge.js';

/** Anything with a verdict that can become a score: a judge result, an ensemble result, a keyword judgment. */
export type ScorableResult = JudgedOutcome<unknown> & {
  judgeCallIds?: readonly string[];
};

const SCORER_NAME = /^[a-z0-9][a-z0-9-]*@[1-9][0-9]*$/;

/**
 * Turns a judgment into a `Score`. `scorer` is `<scorer-id>@<version>` (the scorer's own id,
 * which may differ from its judge template's). `value` is kept only for `pass`/`fail` and is
 * `null` otherwise, whatever the result carried; `judgeCalls` lists the judge-call event ids.
 * An `error` verdict without an explanation is explained by the result's `error`, so a metric
 * left without a value can say why.
 * Throws `ConfidantError` for a malformed scorer name.
 */
export function toScore({
  scorer,
  target,
  result,
  evidence,
}: {
  scorer: string;
  target?: ScoreTarget;
  result: ScorableResult;
  evidence?: Score['evidence'];
}): Score {
  if (!SCORER_NAME.test(scorer)) {
    throw new ConfidantError(`scorer '${scorer}' must be '<id>@<version>', e.g. 'pac-privacy@1'`);
  }
  const counts = result.verdict === 'pass' || result.verdict === 'fail';
  const explanation = result.explanation ?? (result.verdict === 'error' ? result.error : undefined);
  return {
    scorer,
    ...(target === undefined ? {} : { target }),
    verdict: result.verdict,
    value: counts ? result.value : null,
    ...(result.label === undefined ? {} : { label: result.label }),
    ...(explanation === undefined ? {} : { explanation }),
    ...(evidence === undefined ? {} : { evidence }),
    ...(result.judgeCallIds === undefined || result.judgeCallIds.length === 0
      ? {}
      : { judgeCalls: [...result.judgeCallIds] }),
  };
}
