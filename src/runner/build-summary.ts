import { FORMAT_VERSION, type RunSummary, type SampleRecord } from '../spec/run-record.js';
import type { Suite } from '../suites/suite.js';
import { sumUsageByRole, totalCost } from './aggregate-usage.js';

/**
 * Computes `summary.json` from the latest records of a run; used by run, resume and merge.
 *
 * Only records whose id is in `planned` count (the last one per id if several are given).
 * `counts.missing` is the planned samples without a record, and `complete` is `missing === 0`.
 * Metrics and groups come from `suite.metrics` over those records (errored ones included, so
 * metrics can report them in `errors`). Usage is summed per role; the total `costUsd` is `null`
 * if any role's cost is unknown. `errorsByName` counts errored records by error name.
 */
export function buildSummary({
  runId,
  suite,
  options,
  planned,
  records,
  now = new Date(),
  stopReason,
}: {
  runId: string;
  suite: Suite;
  options: unknown;
  planned: string[];
  records: SampleRecord[];
  now?: Date;
  stopReason?: string;
}): RunSummary {
  const plannedIds = new Set(planned);
  const latest = new Map<string, SampleRecord>();
  for (const record of records) if (plannedIds.has(record.id)) latest.set(record.id, record);
  const kept = [...latest.values()];

  const errorsByName: Record<string, number> = {};
  for (const record of kept) {
    if (record.status !== 'error') continue;
    const name = record.error?.name ?? 'Error';
    errorsByName[name] = (errorsByName[name] ?? 0) + 1;
  }
  const errors = kept.filter((record) => record.status === 'error').length;
  const missing = plannedIds.size - kept.length;
  const { metrics, groups } = suite.metrics({ records: kept, options });
  const usage = sumUsageByRole(kept.map((record) => record.usage));

  return {
    formatVersion: FORMAT_VERSION,
    runId,
    finishedAt: now.toISOString(),
    complete: missing === 0,
    ...(stopReason === undefined ? {} : { stopReason }),
    counts: { planned: plannedIds.size, success: kept.length - errors, error: errors, missing },
    metrics,
    ...(groups === undefined ? {} : { groups }),
    usage,
    costUsd: totalCost(usage),
    errorsByName,
  };
}
