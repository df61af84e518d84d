import { realpathSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PlanValidationError } from '../spec/errors.js';
import type { RunSummary } from '../spec/run-record.js';
import {
  createRunDirectory,
  createRunId,
  DirectoryRunStore,
  mergeRuns,
  type RunLockHolder,
  readRunLock,
  refuseHalfWrittenMerge,
} from '../store/index.js';
import { MERGE_INCOMPLETE_MARKER } from '../store/merge-runs.js';
import { loadSuite } from '../suites/registry.js';
import { summarizeStore } from './build-summary.js';
import { parseSuiteOptions, planSuiteOptions } from './prepare-run.js';
import { whileLocked } from './while-locked.js';

/** The inputs of `mergeRunDirectories`. */
export type MergeRunDirectoriesOptions = {
  /** The shard run directories (absolute), in any order. */
  sources: readonly string[];
  /** A new run directory is created under it. */
  outDir: string;
  /** Named in the merged directory's lock. Default `confidant merge`. */
  command?: string;
  /** Called for a source that another process is still writing (the merge holds what it wrote so far). */
  onBusySource?: (source: { dir: string; holder: RunLockHolder }) => void;
  /** Called when the new directory's lock was taken over from a dead process. */
  onLockTakeover?: (holder: RunLockHolder) => void;
};

/**
 * Joins the shards of one run into a new run directory under `outDir` (see `mergeRuns`) and
 * writes its summary. Until the summary is written the directory holds the `.merge-incomplete`
 * marker, so a merge killed half-way is recognisable and is redone rather than read.
 */
export async function mergeRunDirectories(
  options: MergeRunDirectoriesOptions,
): Promise<{ directory: string; summary: RunSummary }> {
  refuseRepeatedSources(options.sources);
  for (const dir of options.sources) refuseHalfWrittenMerge(dir);
  const sources = options.sources.map((dir) => new DirectoryRunStore(dir));
  for (const source of sources) {
    const holder = await readRunLock(source.location);
    if (holder) options.onBusySource?.({ dir: source.location, holder });
  }
  const first = await sources[0]?.readHeader();
  if (first === undefined) throw new TypeError('mergeRunDirectories needs at least one source');
  const suite = await loadSuite(first.suite.id);
  const suiteOptions = parseSuiteOptions({ suite, raw: planSuiteOptions({ suite, plan: first.plan }) });
  const now = new Date();
  const { directory, runId } = await createRunDirectory({
    outDir: options.outDir,
    runId: createRunId({ now, suite: suite.id, planHash: first.planHash }),
  });
  const target = new DirectoryRunStore(directory);
  const marker = join(directory, MERGE_INCOMPLETE_MARKER);
  await writeFile(marker, 'confidant merge in progress\n');
  const { lock, tookOverFrom } = await target.acquireLock({ command: options.command ?? 'confidant merge' });
  if (tookOverFrom) options.onLockTakeover?.(tookOverFrom);
  const summary = await whileLocked({
    lock,
    work: async () => {
      const merged = await mergeRuns({ sources, target, runId, now });
      // One more streaming pass, over the merged file: the merge never holds the records.
      const built = await summarizeStore({
        store: target,
        runId,
        suite,
        options: suiteOptions,
        planned: merged.header.sampleIds,
        now,
      });
      await target.writeSummary(built);
      await rm(marker, { force: true });
      return built;
    },
  });
  return { directory, summary };
}

/**
 * Refuses a run directory given more than once, however it is spelled (`A`, `./A/`, a symlink to
 * it): a run merged with itself joins nothing, and would still be reported as a merge of two runs.
 */
function refuseRepeatedSources(sources: readonly string[]): void {
  const seen = new Map<string, number>();
  for (const dir of sources) {
    const key = canonicalPath(dir);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  for (const [dir, times] of seen) {
    if (times > 1) {
      throw new PlanValidationError(
        `${dir} was given ${times} times; pass each run directory once (the shards of one run, each in its own directory)`,
      );
    }
  }
}

/** The path with symlinks resolved; a path that does not exist stays as given (its own error comes later). */
function canonicalPath(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}
