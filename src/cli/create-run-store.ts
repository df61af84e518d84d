import { planHash } from '../runner/index.js';
import type { ModelDescription } from '../spec/model-spec.js';
import type { RunPlan } from '../spec/run-plan.js';
import { FORMAT_VERSION, type RunHeader, type RunInvocation } from '../spec/run-record.js';
import { createRunDirectory, createRunId, DirectoryRunStore, type RunLock } from '../store/index.js';
import { readDependencyVersions, readPackageVersion } from './package-info.js';
import type { PreparedRun } from './prepare-run.js';

/**
 * Creates a new run directory under `outDir`, locks it for this process (`lock`, to release when
 * the run ends) and writes its header: the plan and its hash, versions, the dataset hash, the
 * models (without secrets), judges, defenses, the samples this run is responsible for and how it
 * was invoked (so `resume` needs no flags or environment). Returns the store the runner appends to.
 */
export async function createRunStore({
  outDir,
  plan,
  prepared,
  models,
  invocation,
  command = 'confidant run',
}: {
  outDir: string;
  plan: RunPlan;
  prepared: PreparedRun;
  models: Record<string, ModelDescription[]>;
  invocation?: RunInvocation;
  /** Named in the lock, for a second writer's message. */
  command?: string;
}): Promise<{ store: DirectoryRunStore; header: RunHeader; lock: RunLock }> {
  const hash = planHash(plan);
  const now = new Date();
  const { runId, directory } = await createRunDirectory({
    outDir,
    runId: createRunId({ now, suite: prepared.suite.id, planHash: hash }),
  });
  const header: RunHeader = {
    formatVersion: FORMAT_VERSION,
    runId,
    createdAt: now.toISOString(),
    confidantVersion: readPackageVersion(),
    nodeVersion: process.version,
    dependencyVersions: readDependencyVersions(),
    plan,
    planHash: hash,
    suite: { id: prepared.suite.id, version: prepared.suite.version },
    dataset: prepared.dataset,
    models,
    judges: prepared.suite.judges(prepared.options),
    defenses: prepared.defenses.map((defense) => defense.id),
    ...(plan.shard ? { shard: plan.shard } : {}),
    sampleIds: prepared.samples.map((sample) => sample.id),
    ...(invocation === undefined ? {} : { invocation }),
  };
  const store = new DirectoryRunStore(directory);
  const { lock } = await store.acquireLock({ command });
  try {
    await store.writeHeader(header);
  } catch (error) {
    await lock.release();
    throw error;
  }
  return { store, header, lock };
}
