import { resolve as resolvePath } from 'node:path';
import type { Defense } from '../spec/defense.js';
import { PlanValidationError } from '../spec/errors.js';
import { DEFAULT_FIDELITY, type Fidelity } from '../spec/fidelity.js';
import type { ModelDescription, RoleBinding } from '../spec/model-spec.js';
import { type RunPlan, runPlanSchema } from '../spec/run-plan.js';
import type { RunHeader, RunInvocation, RunRescore } from '../spec/run-record.js';
import { DirectoryRunStore, LatestRecordLines } from '../store/index.js';
import { loadSuite } from '../suites/registry.js';
import type { Suite } from '../suites/suite.js';
import { applyResumeOverrides, type ResumeOverrides } from './apply-resume-overrides.js';
import { createRunStore } from './create-run-store.js';
import { type EvaluateResult, type RunSessionOptions, type RunStart, runPrepared } from './evaluate.js';
import { prepareRun } from './prepare-run.js';
import { recordedDirectories } from './recorded-directories.js';
import { isScoringRole, replaySuite, scoringBindings } from './replay-suite.js';
import { modelSourcesOf, resolvePlanModels } from './resolve-plan-models.js';
import { whileLocked } from './while-locked.js';

/** The inputs of `rescore`. */
export type RescoreOptions = RunSessionOptions & {
  /** The run directory whose stored outputs are scored anew (only read). */
  source: string;
  /** The new run directory is created under this folder (like `run --out`). */
  outDir: string;
  /** New bindings of scoring roles (`{ role: 'judge', spec: … }`); each replaces that role's bindings. */
  models?: readonly RoleBinding[];
  /** Suite options over the source's (e.g. a judge option); options that change the samples are refused. */
  suiteOptions?: Record<string, unknown>;
  /** Score as the suite's upstream code does (`upstream`) or as confidant does; default: the source's. */
  fidelity?: Fidelity;
  /** Settings of scoring roles over the source's (`{ judge: { temperature: 0 } }`). */
  modelSettings?: Record<string, Record<string, unknown>>;
  /** How (not what) the rescore runs: concurrency, retries, budgets, cache reads, prices. */
  execution?: Omit<ResumeOverrides, 'models'>;
  /** The data directory; default: the one the source run recorded. */
  dataDir?: string;
  /** The response cache directory; default: the one the source run recorded, else none. */
  cacheDir?: string;
  /** The suite as a value, for a suite outside the registry (its id must be the source's). */
  suite?: Suite;
  /** Defenses as values, for defenses outside the registry. */
  defenses?: readonly Defense[];
  /** Stored in the new header, so `resume` needs nothing else. */
  invocation?: RunInvocation;
};

/**
 * The source of a rescore: its header and its latest records, read one at a time by sample id
 * (`LatestRecordLines`: an index of byte ranges, not the records). Close `records` once done.
 */
export type RescoreSource = { dir: string; header: RunHeader; records: LatestRecordLines };

/**
 * Opens a run to rescore through the store's readers: its header and an index of its latest
 * records (each one parsed, with its events, only when its sample is replayed). Refused (user
 * errors): a generation run, and a run with planned samples that have no record (finish it with
 * `resume` first).
 */
export async function readRescoreSource(dir: string): Promise<RescoreSource> {
  const store = new DirectoryRunStore(dir);
  const header = await store.readHeader();
  if (header.kind === 'generation') {
    throw new PlanValidationError(`${dir} is a data generation run, not an evaluation: there is nothing to rescore`);
  }
  const records = await LatestRecordLines.open(store);
  const missing = header.sampleIds.filter((id) => !records.has(id));
  if (missing.length > 0) {
    throw new PlanValidationError(
      `${dir} has ${missing.length} of ${header.sampleIds.length} planned samples without a record (e.g. ${missing[0]}): finish it with \`confidant resume ${dir}\` before rescoring it`,
    );
  }
  return { dir, header, records };
}

/**
 * Scores a run's stored outputs anew into a new run directory, with no agent, prober or defense
 * call: every sample's output, input and transcript are replayed from the source
 * ({@link replaySuite}) and only the suite's scorers run, with the scoring roles (`judge`) bound
 * as the source bound them unless `models` rebinds them. The header records the source run and
 * what changed (`rescoredFrom`); the new run resumes like any other. Refused with a user error:
 * rebinding a role that does not score, options that change the samples or data that differ
 * from the source's.
 */
export async function rescore(options: RescoreOptions): Promise<EvaluateResult> {
  const sourceDir = resolvePath(options.source);
  const source = await readRescoreSource(sourceDir);
  try {
    return await rescoreFrom({ options, sourceDir, source });
  } finally {
    await source.records.close();
  }
}

async function rescoreFrom({
  options,
  sourceDir,
  source,
}: {
  options: RescoreOptions;
  sourceDir: string;
  source: RescoreSource;
}): Promise<EvaluateResult> {
  const { header } = source;
  const plan = rescorePlan({ header, options });
  const { dataDir, cacheDir } = recordedDirectories({
    header,
    location: sourceDir,
    dataDir: options.dataDir,
    cacheDir: options.cacheDir,
  });
  const base = options.suite ?? (await loadSuite(header.suite.id));
  const prepared = await prepareRun({
    plan,
    dataDir,
    suite: replaySuite({ suite: base, sourceRunId: header.runId, records: source.records }),
    ...(options.defenses === undefined ? {} : { defenses: options.defenses }),
  });
  checkSameSamples({ source, prepared: prepared.samples.map((sample) => sample.id), dataHash: prepared.dataset.hash });
  await options.beforeRun?.(prepared);
  const models = await resolvePlanModels({
    plan,
    prepared: { ...prepared, modelBindings: scoringBindings(prepared.modelBindings) },
    ...modelSourcesOf(options),
    cache: { dir: cacheDir ?? null, reads: plan.cache },
  });
  try {
    const rescoredFrom: RunRescore = {
      runId: header.runId,
      dir: sourceDir,
      at: new Date().toISOString(),
      changed: rescoreChanges({ header, plan, suiteVersion: base.version }),
    };
    const opened = await createRunStore({
      outDir: options.outDir,
      plan,
      prepared,
      models: rescoredModels({ recorded: header.models, scoring: models.describe() }),
      rescoredFrom,
      command: options.lockCommand ?? 'confidant rescore',
      ...(options.invocation === undefined ? {} : { invocation: options.invocation }),
    });
    const start: RunStart = { store: opened.store, header: opened.header, prepared };
    options.onStart?.(start);
    return await whileLocked({
      lock: opened.lock,
      work: () => runPrepared({ prepared, plan, store: opened.store, models, options, retryErrors: false }),
    });
  } finally {
    models.close();
  }
}

/** The source's plan with the scoring roles rebound, the suite options and the scoring settings given. */
function rescorePlan({ header, options }: { header: RunHeader; options: RescoreOptions }): RunPlan {
  const given = options.models ?? [];
  const notScoring = given.filter((binding) => !isScoringRole(binding.role));
  if (notScoring.length > 0) {
    throw new PlanValidationError(
      `rescore rebinds only the scoring roles (judge); ${notScoring.map((binding) => `${binding.role}=${binding.spec}`).join(', ')} would change what was solved, and the outputs are replayed from ${header.runId}: start a new run for that`,
    );
  }
  const settingsOf = Object.keys(options.modelSettings ?? {}).filter((role) => !isScoringRole(role));
  if (settingsOf.length > 0) {
    throw new PlanValidationError(
      `rescore changes settings of scoring roles only (judge), not of ${settingsOf.join(', ')}: their outputs are replayed`,
    );
  }
  const replaced = new Set(given.map((binding) => binding.role));
  const modelSettings = { ...header.plan.modelSettings };
  for (const [role, settings] of Object.entries(options.modelSettings ?? {})) {
    modelSettings[role] = { ...modelSettings[role], ...settings };
  }
  const parsed = runPlanSchema.safeParse({
    ...header.plan,
    models: [...header.plan.models.filter((binding) => !replaced.has(binding.role)), ...given],
    suiteOptions: { ...header.plan.suiteOptions, ...options.suiteOptions },
    modelSettings,
    ...(options.fidelity === undefined ? {} : { fidelity: options.fidelity }),
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'plan'}: ${issue.message}`);
    throw new PlanValidationError(`invalid rescore: ${problems.join('; ')}`);
  }
  return applyResumeOverrides({ plan: parsed.data, overrides: options.execution ?? {} }).plan;
}

/** The rescore must score exactly the source's samples, on the source's data. */
function checkSameSamples({
  source,
  prepared,
  dataHash,
}: {
  source: RescoreSource;
  prepared: readonly string[];
  dataHash: string;
}): void {
  const { header } = source;
  if (dataHash !== header.dataset.hash) {
    throw new PlanValidationError(
      `the ${header.dataset.name} data differ from the data ${header.runId} was run on (content hash ${header.dataset.hash}): point --data-dir at the original data`,
    );
  }
  const planned = [...header.sampleIds].sort().join('\n');
  if ([...prepared].sort().join('\n') !== planned) {
    throw new PlanValidationError(
      `these options give other samples than ${header.runId} has (${prepared.length} vs ${header.sampleIds.length}): rescore can only score the stored samples; leave out the options that choose scenarios or variants`,
    );
  }
}

/** The header's models: the source's for the replayed roles, the resolved ones for the scoring roles. */
export function rescoredModels({
  recorded,
  scoring,
}: {
  recorded: Record<string, ModelDescription[]>;
  scoring: Record<string, ModelDescription[]>;
}): Record<string, ModelDescription[]> {
  const kept = Object.entries(recorded).filter(([role]) => !isScoringRole(role));
  return { ...Object.fromEntries(kept), ...scoring };
}

/** What a rescore changed against its source: scoring models, suite options, settings, fidelity, suite version. */
function rescoreChanges({
  header,
  plan,
  suiteVersion,
}: {
  header: RunHeader;
  plan: RunPlan;
  suiteVersion: number;
}): RunRescore['changed'] {
  const changed: RunRescore['changed'] = {};
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const specs = (models: RunPlan['models'], role: string) =>
    models.filter((binding) => binding.role === role).map((binding) => binding.spec);
  const roles = new Set([...header.plan.models, ...plan.models].map((binding) => binding.role));
  for (const role of [...roles].filter(isScoringRole)) {
    const from = specs(header.plan.models, role);
    const to = specs(plan.models, role);
    if (!same(from, to)) changed[`models.${role}`] = { from, to };
  }
  const keys = new Set([...Object.keys(header.plan.suiteOptions), ...Object.keys(plan.suiteOptions)]);
  for (const key of keys) {
    const from = header.plan.suiteOptions[key];
    const to = plan.suiteOptions[key];
    if (!same(from, to)) changed[`suiteOptions.${key}`] = { from, to };
  }
  for (const role of new Set([...Object.keys(header.plan.modelSettings), ...Object.keys(plan.modelSettings)])) {
    const from = header.plan.modelSettings[role];
    const to = plan.modelSettings[role];
    if (!same(from, to)) changed[`modelSettings.${role}`] = { from, to };
  }
  const fidelity = { from: header.plan.fidelity ?? DEFAULT_FIDELITY, to: plan.fidelity ?? DEFAULT_FIDELITY };
  if (fidelity.from !== fidelity.to) changed.fidelity = fidelity;
  if (suiteVersion !== header.suite.version)
    changed['suite.version'] = { from: header.suite.version, to: suiteVersion };
  return changed;
}
