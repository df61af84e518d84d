import { access, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { AdaptiveLimiter } from '../models/index.js';
import { PlanValidationError } from '../spec/errors.js';
import { makeDirectory } from '../spec/make-directory.js';
import type { RunPlan } from '../spec/run-plan.js';
import type { RunSummary } from '../spec/run-record.js';
import type { SweepManifest } from '../spec/sweep-file.js';
import {
  acquireRunLock,
  DirectoryRunStore,
  MERGE_INCOMPLETE_MARKER,
  type RunLockHolder,
  writeFileAtomic,
} from '../store/index.js';
import { type EvaluateResult, evaluatePlan, type RunSessionOptions } from './evaluate.js';
import type { FailFastStop } from './fail-fast.js';
import { resume } from './resume.js';
import type { RunStopReason } from './run-evaluation.js';
import type { ShardSpec } from './shard.js';

/** The manifest's file name in a sweep directory. */
export const SWEEP_MANIFEST_FILE = 'sweep.json';

/** One cell as `runSweep` takes it: id, labels and its run plan. */
export type SweepCellPlan = {
  id: string;
  labels: Record<string, string>;
  suite: string;
  plan: RunPlan;
  planHash: string;
  /** The cell's own data directory (default: the sweep's). */
  dataDir?: string;
};

/** Where the run directory of a cell goes, relative to the sweep directory. */
export function cellDirectory({ id, shard }: { id: string; shard?: ShardSpec | undefined }): string {
  return shard === undefined ? join('cells', id) : join('shards', `${shard.index}-of-${shard.count}`, 'cells', id);
}

/** What became of one cell in `runSweep`. */
export type SweepCellOutcome = {
  id: string;
  labels: Record<string, string>;
  /** `reused`: every sample already had a record; `ran`: a new run; `resumed`: an unfinished run continued; `failed`: the run could not run (see `error`). */
  status: 'reused' | 'ran' | 'resumed' | 'failed';
  /** The cell's run directory (absent when it failed before one was made). */
  runDir?: string;
  summary?: RunSummary;
  /** Why the run ended before every sample had a record. */
  stopped?: RunStopReason;
  /** Why fail-fast stopped the cell's run. */
  failFast?: FailFastStop;
  error?: string;
  /** Records appended by this call. */
  executed: number;
};

/** The inputs of `runSweep`. */
export type RunSweepOptions = Pick<RunSessionOptions, 'env' | 'providers' | 'signal' | 'openAiCompatibleClient'> & {
  /** The sweep directory (absolute); created when missing. */
  sweepDir: string;
  manifest: Omit<SweepManifest, 'cells' | 'version'>;
  cells: readonly SweepCellPlan[];
  dataDir: string;
  /** One response cache directory for every cell. */
  cacheDir: string;
  /** The working directory recorded in each cell's invocation. */
  cwd: string;
  /** This process runs shard `index` of `count` of every cell. */
  shard?: ShardSpec;
  /** How many cells run at once (default 1); their model calls share one limiter per endpoint. */
  parallelCells?: number;
  /** Also redo the samples whose latest record failed, in unfinished and finished cells alike. */
  retryErrors?: boolean;
  onCellStart?: (cell: SweepCellPlan & { status: 'ran' | 'resumed'; runDir?: string }) => void;
  onCellEnd?: (outcome: SweepCellOutcome) => void;
  /** Called when the sweep's lock was taken over from a dead process. */
  onLockTakeover?: (holder: RunLockHolder) => void;
};

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** The run directories (those with a header) directly inside `dir`, sorted; none when `dir` is missing. */
export async function runDirsIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const runs: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory() && (await exists(join(dir, entry.name, 'header.json')))) runs.push(join(dir, entry.name));
  }
  return runs.sort();
}

type CellState = { cell: SweepCellPlan; cellDir: string; existing?: { runDir: string; complete: boolean } };

/** What a cell directory holds: nothing, or one run of the same plan, finished or not; anything else is a user error. */
async function inspectCell({
  sweepDir,
  cell,
  shard,
}: {
  sweepDir: string;
  cell: SweepCellPlan;
  shard?: ShardSpec;
}): Promise<CellState> {
  const cellDir = join(sweepDir, cellDirectory({ id: cell.id, shard }));
  const runs = await runDirsIn(cellDir);
  if (runs.length === 0) return { cell, cellDir };
  if (runs.length > 1) {
    throw new PlanValidationError(
      `cell ${cell.id} holds ${runs.length} run directories (${runs.map((dir) => relative(sweepDir, dir)).join(', ')}); keep the one to continue and remove the others`,
    );
  }
  const runDir = runs[0] ?? '';
  if (await exists(join(runDir, MERGE_INCOMPLETE_MARKER))) {
    throw new PlanValidationError(
      `cell ${cell.id}: ${relative(sweepDir, runDir)} is a half-written merge; remove it and run \`confidant sweep merge\` again`,
    );
  }
  const store = new DirectoryRunStore(runDir);
  const header = await store.readHeader();
  if (header.planHash !== cell.planHash) {
    throw new PlanValidationError(
      `cell ${cell.id} was run with another plan (its ${relative(sweepDir, runDir)} has plan hash ${header.planHash.slice(0, 12)}, the sweep file now gives ${cell.planHash.slice(0, 12)}); give the changed cell a new label, or remove its directory to run it again`,
    );
  }
  const summary = await store.readSummary();
  return { cell, cellDir, existing: { runDir, complete: summary !== null && summary.counts.missing === 0 } };
}

/**
 * Runs a sweep's cells as ordinary run directories under one sweep directory: a cell whose run has
 * a record for every sample is reused, an unfinished one is resumed (`resume`), a new one is run
 * (`evaluatePlan`); re-running after a crash or after adding an axis value does only the missing
 * work. Cells share the response cache and one limiter per endpoint, so `maxConnections` bounds
 * each endpoint across the cells running at once. Before any cell runs, every cell directory is
 * checked (a cell whose plan changed, or that holds two runs, is a user error listing it) and the
 * manifest is written; the sweep directory (or shard) is locked against a second writer. A cell
 * that fails does not stop the others; its outcome carries the error.
 */
export async function runSweep(options: RunSweepOptions): Promise<SweepCellOutcome[]> {
  const { sweepDir, shard } = options;
  await makeDirectory(sweepDir);
  const workDir = shard === undefined ? sweepDir : join(sweepDir, 'shards', `${shard.index}-of-${shard.count}`);
  await makeDirectory(workDir);
  const { lock, tookOverFrom } = await acquireRunLock({ directory: workDir, command: 'confidant sweep run' });
  if (tookOverFrom) options.onLockTakeover?.(tookOverFrom);
  try {
    const states: CellState[] = [];
    const problems: string[] = [];
    for (const cell of options.cells) {
      try {
        states.push(await inspectCell({ sweepDir, cell, ...(shard === undefined ? {} : { shard }) }));
      } catch (error) {
        if (!(error instanceof PlanValidationError)) throw error;
        problems.push(error.message);
      }
    }
    if (problems.length > 0) throw new PlanValidationError(problems.join('\n'));
    const manifest: SweepManifest = {
      version: 1,
      ...options.manifest,
      cells: options.cells.map((cell) => ({
        id: cell.id,
        labels: cell.labels,
        suite: cell.suite,
        planHash: cell.planHash,
        dir: cellDirectory({ id: cell.id }),
      })),
    };
    await writeFileAtomic({
      path: join(sweepDir, SWEEP_MANIFEST_FILE),
      text: `${JSON.stringify(manifest, null, 2)}\n`,
    });

    const limiters = new Map<string, AdaptiveLimiter>();
    const outcomes: SweepCellOutcome[] = new Array(states.length);
    let next = 0;
    const worker = async () => {
      while (next < states.length && options.signal?.aborted !== true) {
        const index = next++;
        const state = states[index];
        if (state === undefined) continue;
        const outcome = await runCell({ state, options, limiters });
        outcomes[index] = outcome;
        options.onCellEnd?.(outcome);
      }
    };
    const workers = Math.max(1, Math.min(options.parallelCells ?? 1, states.length));
    await Promise.all(Array.from({ length: workers }, worker));
    return outcomes.filter((outcome) => outcome !== undefined);
  } finally {
    await lock.release();
  }
}

async function runCell({
  state,
  options,
  limiters,
}: {
  state: CellState;
  options: RunSweepOptions;
  limiters: Map<string, AdaptiveLimiter>;
}): Promise<SweepCellOutcome> {
  const { cell, existing } = state;
  const base = { id: cell.id, labels: cell.labels };
  if (existing?.complete === true && options.retryErrors !== true) {
    const summary = (await new DirectoryRunStore(existing.runDir).readSummary()) ?? undefined;
    return { ...base, status: 'reused', runDir: existing.runDir, ...(summary ? { summary } : {}), executed: 0 };
  }
  const session = {
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.providers === undefined ? {} : { providers: options.providers }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.openAiCompatibleClient === undefined ? {} : { openAiCompatibleClient: options.openAiCompatibleClient }),
    limiters,
  };
  const status = existing === undefined ? 'ran' : 'resumed';
  let runDir = existing?.runDir;
  try {
    let result: EvaluateResult;
    if (existing === undefined) {
      await makeDirectory(state.cellDir);
      options.onCellStart?.({ ...cell, status: 'ran' });
      result = await evaluatePlan({
        ...session,
        plan: cell.plan,
        dataDir: cell.dataDir ?? options.dataDir,
        outDir: state.cellDir,
        cacheDir: options.cacheDir,
        lockCommand: 'confidant sweep run',
        invocation: { cwd: options.cwd, dataDir: cell.dataDir ?? options.dataDir, cacheDir: options.cacheDir },
        onStart: ({ store }) => {
          runDir = store.location;
        },
      });
    } else {
      options.onCellStart?.({ ...cell, status: 'resumed', runDir: existing.runDir });
      result = await resume({
        ...session,
        store: existing.runDir,
        dataDir: cell.dataDir ?? options.dataDir,
        cacheDir: options.cacheDir,
        cwd: options.cwd,
        retryErrors: options.retryErrors === true,
      });
    }
    return {
      ...base,
      status,
      ...(runDir === undefined ? {} : { runDir }),
      summary: result.summary,
      ...(result.stopped === undefined ? {} : { stopped: result.stopped }),
      ...(result.failFast === undefined ? {} : { failFast: result.failFast }),
      executed: result.executed,
    };
  } catch (error) {
    return {
      ...base,
      status: 'failed',
      ...(runDir === undefined ? {} : { runDir }),
      error: error instanceof Error ? error.message : String(error),
      executed: 0,
    };
  }
}
