import type { BoundModel, EmitEvent, GenerateSettings } from '../spec/chat-model.js';
import type { Verdict } from '../spec/score.js';
import type { ScoreTarget } from '../spec/score-target.js';
import type { JudgeDefinition, JudgedOutcome } from './judge.js';
import { type JudgeResult, runJudge } from './run-judge.js';

/** One judge model's judgment inside an ensemble. */
export type EnsembleVote = Pick<JudgedOutcome, 'verdict' | 'value' | 'label' | 'error'> & {
  /** `<provider>:<modelId>` of the voting model. */
  model: string;
  judgeCallId: string;
};

/** The combined judgment of several judge models. */
export type EnsembleResult<T> = JudgedOutcome<T> & {
  /** Every model's judgment, in the order of `models`. */
  votes: EnsembleVote[];
  /** Models that gave a non-error verdict: the number the report shows as "judges that voted". */
  voters: number;
  /** Models whose judgment was `error`. */
  errors: number;
  /** The judge-call event ids of all votes, for `toScore`. */
  judgeCallIds: string[];
};

/** How votes combine: by majority (`binary`) or by the mean of their values (`scalar`). */
export type EnsembleKind =
  | { kind: 'binary' }
  | {
      kind: 'scalar';
      /** The verdict for a mean value (e.g. `mean >= 2 ? 'pass' : 'fail'` on a 0–3 scale). */
      verdictOf: (mean: number) => 'pass' | 'fail';
    };

/** Options of `runEnsemble`: those of `runJudge` with a list of models, plus the kind of vote. */
export type RunEnsembleOptions<T> = EnsembleKind & {
  judge: JudgeDefinition<T>;
  slots: Readonly<Record<string, string>>;
  trustedSlots?: Readonly<Record<string, string>>;
  /** The judge models (`roles.ensemble('judge')`); at least one. */
  models: readonly BoundModel[];
  emit: EmitEvent;
  target?: ScoreTarget;
  maxParseRetries?: number;
  settings?: Omit<GenerateSettings, 'temperature'>;
  signal?: AbortSignal;
};

/**
 * Runs the same judgment on several judge models, one after another (so events keep a stable
 * order), and combines them. Each model's judgment is a full `runJudge` with its own judge-call event.
 *
 * - `binary`: the verdict with the most non-error votes wins (`not-applicable` counts as a vote);
 *   a tie for first place, or more `error` votes than non-error votes, gives `error`. The value,
 *   label and explanation are those of the first winning vote.
 * - `scalar`: the mean of the numeric values of the `pass`/`fail` votes, with `verdictOf(mean)` as
 *   the verdict; when only `not-applicable` votes remain the verdict is `not-applicable`, and when
 *   every vote is `error` it is `error`. The label is kept only when all numeric votes share it.
 *
 * With exactly one model the result is that model's `runJudge` result (verdict, value, label,
 * explanation, parsed, error), so a single judge behaves the same with or without the ensemble.
 */
export async function runEnsemble<T>(options: RunEnsembleOptions<T>): Promise<EnsembleResult<T>> {
  const { models, judge, slots, trustedSlots, emit, target, maxParseRetries, settings, signal } = options;
  if (models.length === 0) throw new RangeError('runEnsemble needs at least one judge model');

  const results: JudgeResult<T>[] = [];
  for (const model of models) {
    results.push(
      await runJudge({
        judge,
        slots,
        model,
        emit,
        ...(trustedSlots === undefined ? {} : { trustedSlots }),
        ...(target === undefined ? {} : { target }),
        ...(maxParseRetries === undefined ? {} : { maxParseRetries }),
        ...(settings === undefined ? {} : { settings }),
        ...(signal === undefined ? {} : { signal }),
      }),
    );
  }

  const votes = results.map((result, index) => voteOf(result, models[index]));
  const errors = votes.filter((vote) => vote.verdict === 'error').length;
  const common = { votes, voters: votes.length - errors, errors, judgeCallIds: results.map((r) => r.judgeCallId) };

  const only = results.length === 1 ? results[0] : undefined;
  if (only !== undefined) {
    return {
      verdict: only.verdict,
      value: only.value,
      ...optional({ label: only.label, explanation: only.explanation, parsed: only.parsed, error: only.error }),
      ...common,
    };
  }
  const combined = options.kind === 'binary' ? majority(results) : mean(results, options.verdictOf);
  return { ...combined, ...common };
}

function majority<T>(results: JudgeResult<T>[]): JudgedOutcome {
  const valid = results.filter((result) => result.verdict !== 'error');
  const errors = results.length - valid.length;
  if (valid.length === 0) return { verdict: 'error', value: null, error: `all ${errors} judges returned error` };
  if (errors > valid.length) {
    return { verdict: 'error', value: null, error: `${errors} judges returned error and only ${valid.length} voted` };
  }
  const counts = new Map<Verdict, number>();
  for (const result of valid) counts.set(result.verdict, (counts.get(result.verdict) ?? 0) + 1);
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const [first, second] = ranked;
  if (first === undefined) return { verdict: 'error', value: null, error: 'no votes' };
  if (second !== undefined && second[1] === first[1]) {
    const tally = ranked.map(([verdict, count]) => `${verdict} ${count}`).join(', ');
    return { verdict: 'error', value: null, error: `the judges tied (${tally})` };
  }
  const winner = valid.find((result) => result.verdict === first[0]);
  if (winner === undefined) return { verdict: 'error', value: null, error: 'no votes' };
  return {
    verdict: winner.verdict,
    value: winner.value,
    ...optional({ label: winner.label, explanation: winner.explanation }),
  };
}

function mean<T>(results: JudgeResult<T>[], verdictOf: (mean: number) => 'pass' | 'fail'): JudgedOutcome {
  const numeric = results.filter(
    (result): result is JudgeResult<T> & { value: number } =>
      (result.verdict === 'pass' || result.verdict === 'fail') && typeof result.value === 'number',
  );
  if (numeric.length === 0) {
    const notApplicable = results.some((result) => result.verdict === 'not-applicable');
    return notApplicable
      ? { verdict: 'not-applicable', value: null }
      : { verdict: 'error', value: null, error: `all ${results.length} judges returned error` };
  }
  const value = numeric.reduce((sum, result) => sum + result.value, 0) / numeric.length;
  const labels = new Set(numeric.map((result) => result.label));
  const [label] = labels;
  return { verdict: verdictOf(value), value, ...(labels.size === 1 && label !== undefined ? { label } : {}) };
}

function voteOf<T>(result: JudgeResult<T>, model: BoundModel | undefined): EnsembleVote {
  return {
    model: model === undefined ? 'unknown' : `${model.provider}:${model.modelId}`,
    verdict: result.verdict,
    value: result.value,
    ...optional({ label: result.label, error: result.error }),
    judgeCallId: result.judgeCallId,
  };
}

/** Copies only the defined fields, so results never carry `key: undefined`. */
function optional<R extends Record<string, unknown>>(fields: R): Partial<R> {
  const kept: Partial<R> = {};
  for (const key of Object.keys(fields) as Array<keyof R>) {
    if (fields[key] !== undefined) kept[key] = fields[key];
  }
  return kept;
}
