import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readCompareRecords } from '../reports/read-compare-records.js';
import type { SweepReportCell } from '../reports/sweep-table.js';
import { causeCountLabel, runDirsIn, SWEEP_MANIFEST_FILE } from '../runner/index.js';
import { PlanValidationError } from '../spec/errors.js';
import type { MetricDefinition } from '../spec/metric-definition.js';
import { failedSampleCount } from '../spec/run-record.js';
import { type SweepManifest, sweepManifestSchema } from '../spec/sweep-file.js';
import { MERGE_INCOMPLETE_MARKER } from '../store/index.js';
import { formatIssues } from './flag-schema.js';
import { readReportRuns } from './read-report-runs.js';

/** Reads a sweep directory's manifest, or a user error saying what the directory is missing. */
export async function readSweepManifest(sweepDir: string): Promise<SweepManifest> {
  const path = join(sweepDir, SWEEP_MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new PlanValidationError(
      `${sweepDir} is not a sweep directory (no ${SWEEP_MANIFEST_FILE}); make one with \`confidant sweep run <sweep-file> --out ${sweepDir}\``,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new PlanValidationError(
      `${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const parsed = sweepManifestSchema.safeParse(raw);
  if (!parsed.success)
    throw new PlanValidationError(`${path} is not a sweep manifest: ${formatIssues({ issues: parsed.error.issues })}`);
  return parsed.data;
}

/**
 * Reads every cell of a sweep directory for `sweep report`: its status (missing, failed,
 * incomplete or ok), header, summary and, with `records`, the latest records for the paired tests.
 * A cell whose samples failed over its run's `--max-error-rate` counts as failed, with the most
 * common cause as its reason, so a broken judge never shows as a number.
 */
export async function readSweepCells({
  sweepDir,
  manifest,
  records,
}: {
  sweepDir: string;
  manifest: SweepManifest;
  records: boolean;
}): Promise<{ cells: SweepReportCell[]; definitions: MetricDefinition[] }> {
  const cells: SweepReportCell[] = [];
  const definitions: MetricDefinition[] = [];
  for (const cell of manifest.cells) {
    const base = { id: cell.id, labels: cell.labels };
    const runs = await runDirsIn(join(sweepDir, cell.dir));
    const runDir = runs[0];
    if (runDir === undefined) {
      const sharded = await readdir(join(sweepDir, 'shards')).catch(() => [] as string[]);
      cells.push({
        ...base,
        status: 'missing',
        reason:
          sharded.length > 0
            ? 'not merged yet: run `confidant sweep merge` once every shard finished'
            : 'not run yet: run `confidant sweep run` again',
      });
      continue;
    }
    if (runs.length > 1) {
      cells.push({ ...base, status: 'failed', reason: `the cell holds ${runs.length} runs; keep one` });
      continue;
    }
    if ((await readdir(runDir)).includes(MERGE_INCOMPLETE_MARKER)) {
      cells.push({ ...base, status: 'failed', reason: 'a half-written merge: run `confidant sweep merge` again' });
      continue;
    }
    const { runs: read, definitions: suiteDefinitions } = await readReportRuns({ dirs: [runDir], cwd: sweepDir });
    const run = read[0];
    if (run === undefined) continue;
    const known = new Set(definitions.map((definition) => definition.id));
    definitions.push(...suiteDefinitions.filter((definition) => !known.has(definition.id)));
    const { summary, header } = run;
    const withRecords = records ? { records: await readCompareRecords(run.store) } : {};
    const failures = summary.failures;
    const failed = failures === undefined ? summary.counts.error : failedSampleCount(failures);
    const finished = summary.counts.success + summary.counts.error;
    const rate = finished === 0 ? 0 : failed / finished;
    const top = summary.errorCauses?.[0];
    if (failed > 0 && rate > header.plan.maxErrorRate) {
      cells.push({
        ...base,
        status: 'failed',
        reason: `${failed} of ${finished} samples failed${top === undefined ? '' : `; most common cause: ${causeCountLabel(top)}`}`,
        header,
        summary,
        ...withRecords,
      });
    } else if (summary.counts.missing > 0) {
      cells.push({
        ...base,
        status: 'incomplete',
        reason: `${summary.counts.missing} of ${summary.counts.planned} samples have no record${summary.stopReason ? ` (${summary.stopReason})` : ''}`,
        header,
        summary,
        ...withRecords,
      });
    } else cells.push({ ...base, status: 'ok', header, summary, ...withRecords });
  }
  return { cells, definitions };
}
