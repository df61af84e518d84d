import type { SampleRecord } from '../../spec/run-record.js';
import { scoreKey } from '../per-sample-rows.js';

/** What the sample browser lists and filters on for one sample (no transcript). */
export type SampleIndexRow = {
  id: string;
  scenarioId: string;
  variant: Record<string, string>;
  epoch: number;
  /** The scenario's domain, when the output names one (`domain`, as PAC-Bench outputs do). */
  domain?: string;
  status: SampleRecord['status'];
  /** Some score failed (the bad outcome: a leak, a violation). */
  leaked: boolean;
  /** Every score was decided and none failed. */
  compliant: boolean;
  /** A judge call or score ended in `error`. */
  judgeError: boolean;
  /** `<scorer>=<verdict>` per score, in order. */
  verdicts: string[];
  error?: string;
};

/** The browser's row for a record. */
export function sampleIndexRow(record: SampleRecord): SampleIndexRow {
  const decided = record.scores.filter((score) => score.verdict === 'pass' || score.verdict === 'fail');
  const leaked = record.scores.some((score) => score.verdict === 'fail');
  const judgeError =
    record.scores.some((score) => score.verdict === 'error') ||
    (record.judgments ?? []).some((judgment) => judgment.verdict === 'error');
  return {
    id: record.id,
    scenarioId: record.scenarioId,
    variant: record.variant,
    epoch: record.epoch,
    ...domainOf(record.output),
    status: record.status,
    leaked,
    compliant: record.status === 'ok' && decided.length > 0 && !leaked && decided.length === record.scores.length,
    judgeError,
    verdicts: record.scores.map((score) => `${scoreKey(score)}=${score.verdict}`),
    ...(record.error === undefined ? {} : { error: `${record.error.name}: ${record.error.message}` }),
  };
}

/** `{ domain }` from an output that names its domain (read by shape, never by suite). */
function domainOf(output: unknown): { domain?: string } {
  if (output === null || typeof output !== 'object' || !('domain' in output)) return {};
  return typeof output.domain === 'string' && output.domain !== '' ? { domain: output.domain } : {};
}
