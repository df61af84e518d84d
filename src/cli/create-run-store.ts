import { planHash } from '../runner/index.js';
import type { ModelDescription } from '../spec/model-spec.js';
import type { RunPlan } from '../spec/run-plan.js';
import { FORMAT_VERSION, type RunHeader } from '../spec/run-record.js';
import { createRunDirectory, createRunId, DirectoryRunStore } from '../store/index.js';
import { readDependencyVersions, readPackageVersion } from './package-info.js';
import type { PreparedRun } from './prepare-run.js';

/**
 * Creates a new run directory under `outDir` and writes its header: the plan and its hash,
 * versions, the dataset hash, the models (without secrets), judges, defenses and the samples
 * this run is responsible for. Returns the store the runner appends to.
 */
export async function createRunStore({
  outDir,
  plan,
  prepared,
  models,
}: {
  outDir: string;
  plan: RunPlan;
  prepared: PreparedRun;
  models: Record<string, ModelDescription[]>;
}): Promise<{ store: DirectoryRunStore; header: RunHeader }> {
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
  };
  const store = new DirectoryRunStore(directory);
  await store.writeHeader(header);
  return { store, header };
}
