import type { SampleRecord } from '../spec/run-record.js';
import type { SampleSpec } from '../suites/suite.js';
import { needsRetry } from './sample-failures.js';

/** A sample still to run and the attempt number its record will carry. */
export type PendingSample = { sample: SampleSpec; attempt: number };

/**
 * Decides what a (re)started run still has to do. A sample with no record runs as attempt 1.
 * A sample whose latest record is `ok` is done. One whose latest record failed (status `error`, or
 * a judge call ended in `error`) is done too, unless `retryErrors` is set: then it runs again as
 * attempt `previous + 1`. `errors` counts the done samples whose latest record is an error.
 */
export function selectPending({
  samples,
  records,
  retryErrors = false,
}: {
  samples: SampleSpec[];
  records: SampleRecord[];
  retryErrors?: boolean;
}): { pending: PendingSample[]; done: number; errors: number } {
  const latest = new Map(records.map((record) => [record.id, record]));
  const pending: PendingSample[] = [];
  let done = 0;
  let errors = 0;
  for (const sample of samples) {
    const record = latest.get(sample.id);
    if (!record) pending.push({ sample, attempt: 1 });
    else if (retryErrors && needsRetry(record)) pending.push({ sample, attempt: record.attempt + 1 });
    else {
      done += 1;
      if (record.status === 'error') errors += 1;
    }
  }
  return { pending, done, errors };
}
