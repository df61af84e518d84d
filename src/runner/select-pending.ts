import type { SampleRecord } from '../spec/run-record.js';
import type { SampleSpec } from '../suites/suite.js';
import { needsRetry } from './sample-failures.js';

/** What `selectPending` needs of a sample's latest record (an index entry, not the record). */
export type RecordBrief = Pick<SampleRecord, 'attempt' | 'status'> & {
  /** The record failed (status `error`, or a judge call ended in `error`): `needsRetry`. */
  failed: boolean;
};

/** The brief of one record. */
export function briefOf(record: SampleRecord): RecordBrief {
  return { attempt: record.attempt, status: record.status, failed: needsRetry(record) };
}

/** A sample still to run and the attempt number its record will carry. */
export type PendingSample = { sample: SampleSpec; attempt: number };

/**
 * Decides what a (re)started run still has to do. A sample with no record runs as attempt 1.
 * A sample whose latest record is `ok` is done. One whose latest record failed (status `error`, or
 * a judge call ended in `error`) is done too, unless `retryErrors` is set: then it runs again as
 * attempt `previous + 1`. `errors` counts the done samples whose latest record is an error.
 * `latest` maps sample ids to the brief of their latest record (`briefOf`).
 */
export function selectPending({
  samples,
  latest,
  retryErrors = false,
}: {
  samples: SampleSpec[];
  latest: ReadonlyMap<string, RecordBrief>;
  retryErrors?: boolean;
}): { pending: PendingSample[]; done: number; errors: number } {
  const pending: PendingSample[] = [];
  let done = 0;
  let errors = 0;
  for (const sample of samples) {
    const record = latest.get(sample.id);
    if (!record) pending.push({ sample, attempt: 1 });
    else if (retryErrors && record.failed) pending.push({ sample, attempt: record.attempt + 1 });
    else {
      done += 1;
      if (record.status === 'error') errors += 1;
    }
  }
  return { pending, done, errors };
}
