import { causeKey, causeLabel, causeSource, type ErrorCause, type ErrorCauseCount } from '../spec/error-cause.js';
import type { FailureCounts, SampleRecord } from '../spec/run-record.js';
import { failedJudgments, failedScores, sampleErrorCause } from './sample-failures.js';

/** What one record adds to a tally (`failureContribution`); small, so an index of a run can keep it. */
export type FailureContribution = {
  errored: boolean;
  judgeErrors: number;
  /** Scores in `error` with no failed judge call behind them (`failedScores`); 0 when errored or judge-errored. */
  scoreErrors: number;
  causes: Array<{ key: string; kind: 'sample' | 'judge' | 'score'; judge?: string; cause: ErrorCause }>;
};

type CauseEntry = {
  base: Omit<ErrorCauseCount, 'count' | 'exampleSampleId'>;
  count: number;
  /** Samples with this cause, first seen first, and how often each has it. */
  samples: Map<string, number>;
};

/** A cause counted for display: one short line and how often. */
export type CauseLine = { label: string; count: number };

/** The failures of a set of samples, latest record per id: counts and causes, most common first. */
export type FailureSnapshot = FailureCounts & { causes: ErrorCauseCount[] };

/**
 * Counts the failures of a run's latest records: errored samples by cause, failed judge calls by
 * judge and cause, and the samples that ran but had a judge call fail. Setting a record replaces
 * the earlier record of the same id, so a retried sample counts once. The summary and the live
 * progress line both read it, so they always agree.
 */
export class FailureTally {
  private readonly bySample = new Map<string, FailureContribution>();
  private readonly causes = new Map<string, CauseEntry>();
  private finished = 0;
  private errored = 0;
  private judgeErrored = 0;
  private judgeErrors = 0;
  private scoreErrored = 0;

  /**
   * Counts `record`, replacing the contribution of an earlier record with its id. True when the
   * failure counts or causes may have changed (this record or the one it replaces failed); false
   * when a clean record only adds to the finished samples.
   */
  set(record: SampleRecord): boolean {
    return this.setContribution(record.id, failureContribution(record));
  }

  /** `set` from a contribution computed earlier (`failureContribution`) for the record of `id`. */
  setContribution(id: string, contribution: FailureContribution): boolean {
    const previous = this.bySample.get(id);
    if (previous) this.apply(previous, -1, id);
    else this.finished += 1;
    this.bySample.set(id, contribution);
    this.apply(contribution, 1, id);
    return !isClean(contribution) || (previous !== undefined && !isClean(previous));
  }

  /** The counts and the causes, most common first (ties: first seen). */
  snapshot(): FailureSnapshot {
    const failed = this.errored + this.judgeErrored + this.scoreErrored;
    return {
      errored: this.errored,
      judgeErrored: this.judgeErrored,
      judgeErrors: this.judgeErrors,
      // Absent when none, so runs without scorer errors keep the summary they always had.
      ...(this.scoreErrored > 0 ? { scoreErrored: this.scoreErrored } : {}),
      rate: this.finished === 0 ? null : failed / this.finished,
      causes: this.sortedCauses(),
    };
  }

  /** The causes as short lines for a terminal (`connection refused http://… ×4`). */
  lines(): CauseLine[] {
    return this.sortedCauses().map((entry) => ({ label: causeCountLabel(entry), count: entry.count }));
  }

  private sortedCauses(): ErrorCauseCount[] {
    const counted: ErrorCauseCount[] = [];
    for (const entry of this.causes.values()) {
      const [example] = entry.samples.keys();
      if (entry.count > 0 && example !== undefined)
        counted.push({ ...entry.base, count: entry.count, exampleSampleId: example });
    }
    return counted.sort((a, b) => b.count - a.count);
  }

  private apply(contribution: FailureContribution, sign: 1 | -1, sampleId: string): void {
    if (contribution.errored) this.errored += sign;
    else if (contribution.judgeErrors > 0) this.judgeErrored += sign;
    else if (contribution.scoreErrors > 0) this.scoreErrored += sign;
    this.judgeErrors += sign * contribution.judgeErrors;
    for (const { key, kind, judge, cause } of contribution.causes) {
      let entry = this.causes.get(key);
      if (!entry) {
        entry = { base: { ...cause, kind, ...(judge === undefined ? {} : { judge }) }, count: 0, samples: new Map() };
        this.causes.set(key, entry);
      }
      entry.count += sign;
      const times = (entry.samples.get(sampleId) ?? 0) + sign;
      if (times > 0) entry.samples.set(sampleId, times);
      else entry.samples.delete(sampleId);
    }
  }
}

/** What `record` adds to a `FailureTally`. */
export function failureContribution(record: SampleRecord): FailureContribution {
  // The common case, with nothing allocated: no error, no failed judgment, no `error` score.
  if (
    record.status !== 'error' &&
    record.judgments?.some((judgment) => judgment.verdict === 'error') !== true &&
    !record.scores.some((score) => score.verdict === 'error')
  ) {
    return CLEAN;
  }
  const causes: FailureContribution['causes'] = [];
  const sampleCause = sampleErrorCause(record);
  if (sampleCause !== undefined)
    causes.push({ key: `sample\u0000${causeKey(sampleCause)}`, kind: 'sample', cause: sampleCause });
  const judgments = failedJudgments(record);
  const scores = failedScores(record);
  const failedParts = [
    ...judgments.map((judgment) => ({ kind: 'judge' as const, by: judgment.judge, error: judgment.error })),
    ...scores.map((score) => ({ kind: 'score' as const, by: score.scorer, error: score.error })),
  ];
  for (const { kind, by, error } of failedParts) {
    causes.push({ key: `${kind}\u0000${by}\u0000${causeKey(error)}`, kind, judge: by, cause: error });
  }
  if (causes.length === 0 && sampleCause === undefined) return CLEAN;
  return { errored: sampleCause !== undefined, judgeErrors: judgments.length, scoreErrors: scores.length, causes };
}

/**
 * The contribution of a record that did not fail, one shared frozen value: a run's tally and a
 * resume's index keep one contribution per sample, and most samples contribute nothing.
 */
const CLEAN: FailureContribution = Object.freeze({
  errored: false,
  judgeErrors: 0,
  scoreErrors: 0,
  causes: Object.freeze([]) as unknown as FailureContribution['causes'],
});

const isClean = (contribution: FailureContribution) =>
  !contribution.errored &&
  contribution.judgeErrors === 0 &&
  contribution.scoreErrors === 0 &&
  contribution.causes.length === 0;

/** One cause count as a short line: `connection refused http://… ×4`, judge and score causes prefixed with their source. */
export function causeCountLabel(entry: Pick<ErrorCauseCount, 'kind' | 'judge' | 'count'> & ErrorCause): string {
  const what = causeLabel(entry);
  const source = causeSource(entry);
  return `${source === undefined ? '' : `${source}: `}${what} ×${entry.count}`;
}
