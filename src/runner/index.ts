export {
  addUsage,
  emptyUsage,
  isModelCallEvent,
  sumUsageByRole,
  totalCost,
  usageFromEvents,
  usageOfCall,
} from './aggregate-usage.js';
export { buildSummary } from './build-summary.js';
export { createEventRecorder, type EventRecorder } from './create-event-recorder.js';
export {
  ASSUMED_INPUT_TOKENS,
  ASSUMED_MAX_OUTPUT_TOKENS,
  type CostRange,
  type EstimatePlanOptions,
  estimatePlan,
  type PlanEstimate,
  type RoleCallEstimate,
} from './estimate-plan.js';
export { expandSamples, sampleId, sampleSeed } from './expand-samples.js';
export {
  createFailFast,
  FAIL_FAST_MIN_SAMPLES,
  type FailFastOptions,
  type FailFastStop,
} from './fail-fast.js';
export { type CauseLine, causeCountLabel, type FailureSnapshot, FailureTally } from './failure-tally.js';
export { judgeHealthLine, summarizeJudges } from './judge-health.js';
export { canonicalJson, planHash, sha256Hex } from './plan-hash.js';
export { type PendingSample, selectPending } from './resume.js';
export {
  type RunEvaluationOptions,
  type RunEvaluationResult,
  type RunProgress,
  type RunStopReason,
  runEvaluation,
} from './run-evaluation.js';
export {
  failedJudgments,
  isProviderCause,
  judgmentsFromEvents,
  needsRetry,
  type SampleFailure,
  sampleErrorCause,
  sampleFailureOf,
} from './sample-failures.js';
export { parseShard, type ShardSpec, selectShard } from './shard.js';
