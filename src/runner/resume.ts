import type { ResolvedModelRoles } from '../models/resolve-model-roles.js';
import type { Defense } from '../spec/defense.js';
import { PlanValidationError } from '../spec/errors.js';
import type { RunPlan } from '../spec/run-plan.js';
import type { RunHeader, RunResume } from '../spec/run-record.js';
import type { RunStore } from '../spec/run-store.js';
import { DirectoryRunStore } from '../store/directory-run-store.js';
import type { RunLockHolder } from '../store/run-lock.js';
import { loadSuite } from '../suites/registry.js';
import type { Suite } from '../suites/suite.js';
import { applyResumeOverrides, type ResumeOverrides } from './apply-resume-overrides.js';
import { type EvaluateResult, type RunSessionOptions, runPrepared } from './evaluate.js';
import { type PreparedRun, prepareRun } from './prepare-run.js';
import { recordedDirectories } from './recorded-directories.js';
import { replaySuite, scoringBindings } from './replay-suite.js';
import { type RescoreSource, readRescoreSource, rescoredModels } from './rescore.js';
import { modelSourcesOf, resolvePlanModels } from './resolve-plan-models.js';
import { whileLocked } from './while-locked.js';

/** What a resume reports once the header records its overrides, before the first sample. */
export type ResumeStart = {
  store: RunStore;
  header: RunHeader;
  prepared: PreparedRun;
  /** The overrides that changed a setting, as recorded in the header's `resumes` (empty: none). */
  changed: RunResume['changed'];
};

/** The inputs of `resume`, modelled on Inspect's `eval_retry()`. */
export type ResumeOptions = Omit<RunSessionOptions, 'onStart'> & {
  /** The run directory, or its store. A directory is locked while the run writes it. */
  store: RunStore | string;
  /** What may change about how (not what) the run runs. */
  overrides?: ResumeOverrides;
  /** Also redo the samples whose latest record failed (attempt + 1). */
  retryErrors?: boolean;
  /** The data directory; default: the one recorded in the header. */
  dataDir?: string;
  /** The response cache directory; default: the one recorded in the header, else none. */
  cacheDir?: string;
  /** Recorded as the invocation's `cwd` when the header has none yet (default `process.cwd()`). */
  cwd?: string;
  /** The suite as a value, for a suite outside the registry (its id must be the header's). */
  suite?: Suite;
  /** Defenses as values, for defenses outside the registry (their ids must be the header's). */
  defenses?: readonly Defense[];
  /** Models already resolved (the caller closes them); by default the plan's are resolved here. */
  models?: ResolvedModelRoles;
  /** Called when the lock of a dead process on this host was taken over. */
  onLockTakeover?: (holder: RunLockHolder) => void;
  /** Called once the header records the overrides, before the first sample. */
  onStart?: (start: ResumeStart) => void;
};

/**
 * Continues a run, modelled on Inspect's `eval_retry()`: runs the samples that have no record yet
 * (and, with `retryErrors`, redoes the failed ones) exactly as the header plans them. It refuses,
 * with a user error, data whose content hash differs from the recorded one and a suite whose
 * samples no longer match the recorded sample ids; `overrides` change only how the run executes
 * (the plan's identity and so its hash stay), and each change is recorded in the header's
 * `resumes`. A run made by `rescore` resumes the same way, replaying its source's outputs again
 * (`header.rescoredFrom`) with only the scoring roles resolved. Returns `{ summary, store }` like
 * `evaluate`.
 */
export async function resume(options: ResumeOptions): Promise<EvaluateResult> {
  const store = typeof options.store === 'string' ? new DirectoryRunStore(options.store) : options.store;
  if (!(store instanceof DirectoryRunStore)) return resumeLocked({ options, store });
  const { lock, tookOverFrom } = await store.acquireLock({ command: options.lockCommand ?? 'confidant resume' });
  if (tookOverFrom !== undefined) options.onLockTakeover?.(tookOverFrom);
  return whileLocked({ lock, work: () => resumeLocked({ options, store }) });
}

async function resumeLocked({ options, store }: { options: ResumeOptions; store: RunStore }): Promise<EvaluateResult> {
  const header = await store.readHeader();
  const { plan, changed } = applyResumeOverrides({ plan: header.plan, overrides: options.overrides ?? {} });
  const recorded = header.invocation;
  const { dataDir, cacheDir } = recordedDirectories({
    header,
    location: store.location,
    dataDir: options.dataDir,
    cacheDir: options.cacheDir,
    purpose: 'to resume it',
  });
  if (recorded && dataDir !== recorded.dataDir) changed.dataDir = { from: recorded.dataDir, to: dataDir };
  if (recorded && cacheDir !== undefined && cacheDir !== recorded.cacheDir) {
    changed.cacheDir = { from: recorded.cacheDir, to: cacheDir };
  }
  // A rescore replays its source's outputs again and resolves only the scoring roles.
  const source = header.rescoredFrom === undefined ? undefined : await readRescoreSource(header.rescoredFrom.dir);
  try {
    return await resumeWith({ options, store, header, plan, changed, dataDir, cacheDir, source });
  } finally {
    await source?.records.close();
  }
}

/** `resumeLocked` once the plan, the directories and the rescore source (if any) are known. */
async function resumeWith({
  options,
  store,
  header,
  plan,
  changed,
  dataDir,
  cacheDir,
  source,
}: {
  options: ResumeOptions;
  store: RunStore;
  header: RunHeader;
  plan: RunPlan;
  changed: ReturnType<typeof applyResumeOverrides>['changed'];
  dataDir: string;
  cacheDir: string | undefined;
  source: RescoreSource | undefined;
}): Promise<EvaluateResult> {
  const recorded = header.invocation;
  const suite =
    source === undefined
      ? options.suite
      : replaySuite({
          suite: options.suite ?? (await loadSuite(header.suite.id)),
          sourceRunId: source.header.runId,
          records: source.records,
        });
  const prepared = await prepareRun({
    plan,
    dataDir,
    ...(suite === undefined ? {} : { suite }),
    ...(options.defenses === undefined ? {} : { defenses: options.defenses }),
  });
  checkSameRun({ header, prepared, dataDir });
  await options.beforeRun?.(prepared);
  const models =
    options.models ??
    (await resolvePlanModels({
      plan,
      prepared:
        source === undefined ? prepared : { ...prepared, modelBindings: scoringBindings(prepared.modelBindings) },
      ...modelSourcesOf(options),
      cache: { dir: cacheDir ?? null, reads: plan.cache },
    }));
  try {
    const hasChanges = Object.keys(changed).length > 0;
    let current = header;
    if (hasChanges || (recorded === undefined && cacheDir !== undefined)) {
      current = {
        ...header,
        plan,
        models:
          source === undefined
            ? models.describe()
            : rescoredModels({ recorded: header.models, scoring: models.describe() }),
        ...(cacheDir === undefined
          ? {}
          : {
              // Headers from before `invocation` existed learn it from the first resume that works.
              invocation: { ...(recorded ?? { cwd: options.cwd ?? process.cwd() }), dataDir, cacheDir },
            }),
        ...(hasChanges ? { resumes: [...(header.resumes ?? []), { at: new Date().toISOString(), changed }] } : {}),
      };
      await store.writeHeader(current);
    }
    options.onStart?.({ store, header: current, prepared, changed });
    return await runPrepared({
      prepared,
      plan,
      store,
      models,
      options,
      retryErrors: options.retryErrors === true,
    });
  } finally {
    if (options.models === undefined) models.close();
  }
}

/** The data and the samples must be the ones the run started with. */
function checkSameRun({
  header,
  prepared,
  dataDir,
}: {
  header: RunHeader;
  prepared: PreparedRun;
  dataDir: string;
}): void {
  if (prepared.dataset.hash !== header.dataset.hash) {
    throw new PlanValidationError(
      `the dataset in ${dataDir} differs from the one this run started with (content hash ${header.dataset.hash}); point --data-dir at the original data, or start a new run`,
    );
  }
  // A merged run lists its samples shard by shard, not in plan order: the same set is the same plan.
  const inOrder = (ids: readonly string[]): string =>
    (header.mergedFrom === undefined ? [...ids] : [...ids].sort()).join('\n');
  if (inOrder(prepared.samples.map((sample) => sample.id)) !== inOrder(header.sampleIds)) {
    throw new PlanValidationError(
      `the samples of ${header.suite.id} no longer match this run's plan (suite changed since version ${header.suite.version}); start a new run`,
    );
  }
}
