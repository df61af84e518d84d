import type { ModelDescription } from '../spec/model-spec.js';
import type { RunPlan } from '../spec/run-plan.js';
import type { RunHeader, RunInvocation, RunRescore } from '../spec/run-record.js';
import { createRunDirectory } from '../store/create-run-directory.js';
import { createRunId } from '../store/create-run-id.js';
import { DirectoryRunStore } from '../store/directory-run-store.js';
import type { RunLock } from '../store/run-lock.js';
import { buildRunHeader } from './build-run-header.js';
import { planHash } from './plan-hash.js';
import type { PreparedRun } from './prepare-run.js';

/**
 * Creates a new run directory under `outDir`, locks it for this process (`lock`, to release when
 * the run ends) and writes its header (see `buildRunHeader`). Returns the store the runner
 * appends to.
 */
export async function createRunStore({
  outDir,
  plan,
  prepared,
  models,
  invocation,
  rescoredFrom,
  command = 'confidant run',
}: {
  outDir: string;
  plan: RunPlan;
  prepared: PreparedRun;
  models: Record<string, ModelDescription[]>;
  invocation?: RunInvocation;
  /** The source run and what changed, for a run made by `rescore`. */
  rescoredFrom?: RunRescore;
  /** Named in the lock, for a second writer's message. */
  command?: string;
}): Promise<{ store: DirectoryRunStore; header: RunHeader; lock: RunLock }> {
  const now = new Date();
  const { runId, directory } = await createRunDirectory({
    outDir,
    runId: createRunId({ now, suite: prepared.suite.id, planHash: planHash(plan) }),
  });
  const header = buildRunHeader({
    runId,
    now,
    plan,
    prepared,
    models,
    ...(invocation === undefined ? {} : { invocation }),
    ...(rescoredFrom === undefined ? {} : { rescoredFrom }),
  });
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
