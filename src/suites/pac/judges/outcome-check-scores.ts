import type { Score } from '../../../spec/score.js';
import { pacScoreTarget, pacTaskRunScore } from '../outcome-scores.js';
import type { OutcomeCheckResult } from './check-deliverable.js';

/**
 * The run-level score of a list of outcome-check results (target `run`): value = passed /
 * applicable checks, `pass` only when every applicable check passed; `error` when any check
 * errored (never averaged away); `not-applicable` when no check applies; and `error` for an
 * empty list (a scenario without checks judged by them). `mode` starts the explanation.
 */
export function outcomeChecksRunScore({
  scorer,
  results,
  mode,
}: {
  scorer: string;
  results: readonly OutcomeCheckResult[];
  mode: string;
}): Score {
  if (results.length === 0) {
    return {
      scorer,
      target: pacScoreTarget({ kind: 'run' }),
      verdict: 'error',
      value: null,
      explanation: `${mode}: the scenario declares no outcome checks (checks.outcome); use taskMode=messages, artifact or markers`,
    };
  }
  const errored = results.filter((result) => result.verdict === 'error');
  if (errored.length > 0) {
    return {
      scorer,
      target: pacScoreTarget({ kind: 'run' }),
      verdict: 'error',
      value: null,
      explanation: `${mode}: check ${errored.map((result) => result.id).join(', ')} could not be decided: ${errored[0]?.explanation}`,
    };
  }
  const applicable = results.filter((result) => result.verdict !== 'not-applicable');
  if (applicable.length === 0) {
    return {
      scorer,
      target: pacScoreTarget({ kind: 'run' }),
      verdict: 'not-applicable',
      value: null,
      explanation: `${mode}: no check applies (${results.map((result) => result.explanation).join('; ')})`,
    };
  }
  const passed = applicable.filter((result) => result.verdict === 'pass').length;
  const failed = applicable.filter((result) => result.verdict === 'fail').map((result) => result.id);
  const skipped = results.length - applicable.length;
  return pacTaskRunScore({
    scorer,
    achieved: passed,
    total: applicable.length,
    explanation:
      `${mode}: ${passed} of ${applicable.length} checks passed` +
      (failed.length === 0 ? '' : `; failed: ${failed.join(', ')}`) +
      (skipped === 0 ? '' : `; ${skipped} not applicable`),
  });
}

/**
 * The outcome-check scores of one run (score contract of `outcome-scores.ts`): the run score of
 * {@link outcomeChecksRunScore}, then one `check:<id>` score per check in declaration order
 * (`pass` 1, `fail` 0, `error` and `not-applicable` with value null; a `number` check labels the
 * value it read). Nothing for a scenario without checks.
 */
export function outcomeCheckScores({
  scorer,
  results,
}: {
  scorer: string;
  results: readonly OutcomeCheckResult[];
}): Score[] {
  if (results.length === 0) return [];
  const details = results.map((result): Score => {
    const target = pacScoreTarget({ kind: 'check', id: result.id });
    const base = { scorer, target, explanation: `${result.kind}: ${result.explanation}` };
    const label = result.value === undefined ? {} : { label: String(result.value) };
    if (result.verdict === 'pass' || result.verdict === 'fail') {
      return { ...base, verdict: result.verdict, value: result.verdict === 'pass' ? 1 : 0, ...label };
    }
    return { ...base, verdict: result.verdict, value: null, ...label };
  });
  return [outcomeChecksRunScore({ scorer, results, mode: 'checks' }), ...details];
}
