import type { Score } from '../../../spec/score.js';
import { pacScoreTarget, pacTaskRunScore } from '../outcome-scores.js';
import type { RequirementOutcome } from './task-evaluation.js';

/**
 * The task scores (§7.1, score contract of `outcome-scores.ts`): the run score (target `run`,
 * value ts_r = achieved / requirements, `error` when any requirement's judgment failed) and one
 * detail score per requirement (target `requirement:<i>`: pass 1 achieved, fail 0, or error).
 * `mode` names the task judge in every explanation.
 */
export function taskScores({
  scorer,
  mode,
  outcomes,
}: {
  scorer: string;
  mode: string;
  outcomes: readonly RequirementOutcome[];
}): Score[] {
  const failed = outcomes.filter((outcome) => outcome.status === 'error').map((outcome) => outcome.index);
  const achieved = outcomes.filter((outcome) => outcome.status === 'achieved').length;
  const run = pacTaskRunScore({
    scorer,
    achieved: failed.length > 0 ? 'error' : achieved,
    total: outcomes.length,
    explanation:
      failed.length > 0
        ? `${mode}: the judgment of requirement ${failed.join(', ')} failed`
        : `${mode}: ${achieved} of ${outcomes.length} requirements achieved`,
  });
  const details = outcomes.map((outcome): Score => {
    const target = pacScoreTarget({ kind: 'requirement', index: outcome.index });
    const calls = outcome.judgeCalls.length === 0 ? {} : { judgeCalls: [...outcome.judgeCalls] };
    const explanation = `${mode}: ${outcome.explanation ?? outcome.status}`;
    if (outcome.status === 'error') return { scorer, target, verdict: 'error', value: null, explanation, ...calls };
    const ok = outcome.status === 'achieved';
    const last = outcome.turns.at(-1);
    return {
      scorer,
      target,
      verdict: ok ? 'pass' : 'fail',
      value: ok ? 1 : 0,
      ...(ok && last !== undefined ? { label: `turn ${last}` } : {}),
      explanation,
      ...calls,
    };
  });
  return [run, ...details];
}
