export {
  addUsage,
  emptyUsage,
  isModelCallEvent,
  sumUsageByRole,
  totalCost,
  usageFromEvents,
  usageOfCall,
} from './aggregate-usage.js';
export { applyResumeOverrides, describeResumeChanges, type ResumeOverrides } from './apply-resume-overrides.js';
export { type BuildRunHeaderOptions, buildRunHeader } from './build-run-header.js';
export {
  buildSummary,
  createSummaryBuilder,
  type SummaryBuilder,
  type SummaryInput,
  summarizeStore,
} from './build-summary.js';
export { createEventRecorder, type EventRecorder } from './create-event-recorder.js';
export { createRunStore } from './create-run-store.js';
export {
  ASSUMED_INPUT_TOKENS,
  ASSUMED_MAX_OUTPUT_TOKENS,
  type CostRange,
  type EstimatePlanOptions,
  estimatePlan,
  type PlanEstimate,
  type RoleCallEstimate,
} from './estimate-plan.js';
export {
  type EvaluateOptions,
  type EvaluatePlanOptions,
  type EvaluateResult,
  evaluate,
  evaluatePlan,
  type RunSessionOptions,
  type RunStart,
} from './evaluate.js';
export { expandSamples, sampleId, sampleSeed } from './expand-samples.js';
export { CELL_ID_SEPARATOR, expandSweep } from './expand-sweep.js';
export {
  createFailFast,
  FAIL_FAST_MIN_SAMPLES,
  type FailFastOptions,
  type FailFastStop,
} from './fail-fast.js';
export { type CauseLine, causeCountLabel, type FailureSnapshot, FailureTally } from './failure-tally.js';
export { judgeHealthLine, summarizeJudges } from './judge-health.js';
export { type MergeRunDirectoriesOptions, mergeRunDirectories } from './merge-run-directories.js';
export { readDependencyVersions, readPackageVersion, softwareVersions } from './package-info.js';
export { canonicalJson, planHash, sha256Hex } from './plan-hash.js';
export {
  checkRoles,
  fidelityOverrides,
  type PreparedRun,
  type PrepareRunOptions,
  parseSuiteOptions,
  planSuiteOptions,
  prepareRun,
} from './prepare-run.js';
export { isScoringRole, ReplayedFailureError, replaySuite, scoringBindings } from './replay-suite.js';
export { type RescoreOptions, type RescoreSource, readRescoreSource, rescore } from './rescore.js';
export {
  type CacheChoice,
  checkPlanModels,
  planSettings,
  type ResolvePlanModelsOptions,
  resolvePlanModels,
} from './resolve-plan-models.js';
export { type ResumeOptions, type ResumeStart, resume } from './resume.js';
export { MODEL_ROLES } from './role-registry.js';
export {
  type RunEvaluationOptions,
  type RunEvaluationResult,
  type RunProgress,
  type RunStopReason,
  runEvaluation,
} from './run-evaluation.js';
export {
  cellDirectory,
  type RunSweepOptions,
  runDirsIn,
  runSweep,
  SWEEP_MANIFEST_FILE,
  type SweepCellOutcome,
  type SweepCellPlan,
} from './run-sweep.js';
export {
  failedJudgments,
  isProviderCause,
  judgmentsFromEvents,
  needsRetry,
  type RecordFailure,
  recordFailureOf,
  sampleErrorCause,
} from './sample-failures.js';
export { briefOf, type PendingSample, type RecordBrief, selectPending } from './select-pending.js';
export { parseShard, type ShardSpec, selectShard } from './shard.js';
export { whileLocked } from './while-locked.js';
