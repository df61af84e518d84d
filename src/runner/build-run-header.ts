import type { ModelDescription } from '../spec/model-spec.js';
import type { RunPlan } from '../spec/run-plan.js';
import { FORMAT_VERSION, type RunHeader, type RunInvocation, type RunRescore } from '../spec/run-record.js';
import { suiteJudges } from '../suites/suite.js';
import { softwareVersions } from './package-info.js';
import { planHash } from './plan-hash.js';
import type { PreparedRun } from './prepare-run.js';

/** The inputs of `buildRunHeader`. */
export type BuildRunHeaderOptions = {
  runId: string;
  /** When the run was created. */
  now: Date;
  plan: RunPlan;
  prepared: PreparedRun;
  /** What the resolved model roles describe (provider, model, redacted endpoints), by role. */
  models: Record<string, ModelDescription[]>;
  /** How the run was invoked (so `resume` needs no flags or environment). */
  invocation?: RunInvocation;
  /** The source run and what changed, for a run made by `rescore`. */
  rescoredFrom?: RunRescore;
};

/**
 * A new run's `header.json`: the plan and its hash, versions, the dataset hash, the models
 * (without secrets), judges, defenses, the samples this run is responsible for and how it was
 * invoked.
 */
export function buildRunHeader({
  runId,
  now,
  plan,
  prepared,
  models,
  invocation,
  rescoredFrom,
}: BuildRunHeaderOptions): RunHeader {
  return {
    formatVersion: FORMAT_VERSION,
    runId,
    createdAt: now.toISOString(),
    ...softwareVersions(),
    plan,
    planHash: planHash(plan),
    suite: { id: prepared.suite.id, version: prepared.suite.version },
    dataset: prepared.dataset,
    models,
    judges: suiteJudges({ scorers: prepared.suite.scorers, options: prepared.options }),
    defenses: prepared.defenses.map((defense) => defense.id),
    ...(plan.shard ? { shard: plan.shard } : {}),
    sampleIds: prepared.samples.map((sample) => sample.id),
    ...(invocation === undefined ? {} : { invocation }),
    ...(rescoredFrom === undefined ? {} : { rescoredFrom }),
  };
}
