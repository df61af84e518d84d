import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { mergeRunDirectories, runDirsIn } from '../runner/index.js';
import { PlanValidationError } from '../spec/errors.js';
import { DirectoryRunStore, MERGE_INCOMPLETE_MARKER } from '../store/index.js';
import type { CliIo } from './cli-io.js';
import { readSweepManifest } from './read-sweep-dir.js';

/** What `mergeSweep` did, by cell. */
export type SweepMergeResult = { merged: number; unchanged: number; unsharded: number; incomplete: number };

/**
 * Joins, for every cell of a sweep directory, the runs its shards wrote (`shards/<i>-of-<n>/cells/<id>/`)
 * into one run in `cells/<id>/`. A cell already merged from the same shard runs is left as is; a
 * stale or half-written merge is replaced (it is derived from the shards); a cell whose own run was
 * not made by a merge is a user error, never overwritten. Shards of different counts are refused.
 * Cells whose merged run still lacks samples (a shard not finished or missing) are counted and
 * named on stderr.
 */
export async function mergeSweep({ sweepDir, io }: { sweepDir: string; io: CliIo }): Promise<SweepMergeResult> {
  const manifest = await readSweepManifest(sweepDir);
  const shardNames = (await readdir(join(sweepDir, 'shards')).catch(() => [] as string[])).filter((name) =>
    /^\d+-of-\d+$/.test(name),
  );
  const counts = new Set(shardNames.map((name) => name.split('-of-')[1]));
  if (counts.size > 1) {
    throw new PlanValidationError(
      `${sweepDir}/shards holds shards of different counts (${[...counts].join(', ')}); keep the shards of one --shard i/n and remove the others`,
    );
  }
  const total = Number([...counts][0] ?? 0);
  const result: SweepMergeResult = { merged: 0, unchanged: 0, unsharded: 0, incomplete: 0 };
  for (const cell of manifest.cells) {
    const sources: string[] = [];
    for (const shard of shardNames)
      sources.push(...(await runDirsIn(join(sweepDir, 'shards', shard, 'cells', cell.id))));
    if (sources.length === 0) {
      result.unsharded += 1;
      continue;
    }
    const shardsFound = new Set(
      sources.map((source) => source.slice(join(sweepDir, 'shards').length + 1).split('/')[0]),
    );
    const cellDir = join(sweepDir, cell.dir);
    const existing = await runDirsIn(cellDir);
    const sourceIds = await Promise.all(
      sources.map(async (dir) => (await new DirectoryRunStore(dir).readHeader()).runId),
    );
    let upToDate = false;
    for (const dir of existing) {
      const names = await readdir(dir);
      const header = await new DirectoryRunStore(dir).readHeader();
      if (header.mergedFrom === undefined && !names.includes(MERGE_INCOMPLETE_MARKER)) {
        throw new PlanValidationError(
          `cell ${cell.id} already has a run that no merge made (${dir}); remove it, or its shards, before merging`,
        );
      }
      const same =
        !names.includes(MERGE_INCOMPLETE_MARKER) &&
        names.includes('summary.json') &&
        header.mergedFrom !== undefined &&
        [...header.mergedFrom].sort().join(',') === [...sourceIds].sort().join(',') &&
        !(await sourcesChangedSince({ sources, mergedDir: dir }));
      if (same) upToDate = true;
      else await rm(dir, { recursive: true, force: true });
    }
    if (upToDate) {
      result.unchanged += 1;
      continue;
    }
    const { summary } = await mergeRunDirectories({
      sources,
      outDir: cellDir,
      command: 'confidant sweep merge',
      onBusySource: ({ dir, holder }) =>
        io.stderr(
          `warning: ${dir} is still being written by PID ${holder.pid} on ${holder.host}; merging what it wrote so far\n`,
        ),
    });
    result.merged += 1;
    if (summary.counts.missing > 0 || shardsFound.size < total) {
      result.incomplete += 1;
      io.stderr(
        `cell ${cell.id}: ${summary.counts.missing} of ${summary.counts.planned} samples missing (${shardsFound.size} of ${total} shards wrote this cell); run the missing shards, then merge again\n`,
      );
    }
  }
  return result;
}

/** Whether any source holds more records than when `mergedDir` was merged (a shard that went on). */
async function sourcesChangedSince({
  sources,
  mergedDir,
}: {
  sources: readonly string[];
  mergedDir: string;
}): Promise<boolean> {
  // Counted from the line index: no record is kept.
  const merged = (await new DirectoryRunStore(mergedDir).indexSampleLines()).length;
  let total = 0;
  for (const source of sources) total += (await new DirectoryRunStore(source).indexSampleLines()).length;
  return total !== merged;
}
