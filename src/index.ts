export const VERSION = '0.1.0';

export { answerTaskPrompt } from './agents/prompted-responder.js';
// Defenses and the application middleware (privact.md §2–3, §10).
export {
  createOneTwoThreeCheck,
  createRoleChainDefense,
  defenseRegistry,
  GENERIC_PRIVACY_INSTRUCTION,
  type OneTwoThreeCheckVariant,
  type PrivacyGuardOptions,
  type PrivacyGuardReport,
  type PrivacyGuardVerdict,
  privacyEnhancedPrompt,
  privacyGuard,
  privacyPromptDefense,
  resolveDefense,
  vanillaDefense,
} from './defenses/index.js';
export { defineJudge, keywordJudge, runEnsemble, runJudge, toScore } from './judges/index.js';
export {
  countMetric,
  failRate,
  leakAtK,
  meanValue,
  nullReason,
  passRate,
  pearson,
  reasonFromScores,
  withReason,
} from './metrics/index.js';
export {
  createPriceTable,
  type PriceTable,
  parseModelSpec,
  parseRoleBinding,
  providerRegistry,
  resolveModelRoles,
} from './models/index.js';
export {
  CHAIN_ROLES,
  type ChainNode,
  type ChainRole,
  type ChainTree,
  type ChainVerdict,
  leafPaths,
  parseBranching,
  parseTopology,
  parseVerdict,
  type RunRoleChainOptions,
  resolveBranching,
  runRoleChain,
  TASK_SECTION_IDS,
  TOPOLOGY_GRAMMAR,
  type Topology,
} from './orchestration/index.js';
export { buildReport } from './reports/build-report.js';
export { renderMarkdown } from './reports/render-markdown.js';
export {
  buildSummary,
  type EstimatePlanOptions,
  estimatePlan,
  expandSamples,
  type PlanEstimate,
  runEvaluation,
} from './runner/index.js';
// The spine: contracts, models, runs, judges and metrics.
export * from './spec/index.js';
export { DirectoryRunStore, InMemoryRunStore, mergeRuns } from './store/index.js';
// What a suite declares about its model calls, for dry runs (`Suite.callPattern`).
export {
  type CallCount,
  type CallPatternContext,
  estimateTokens,
  exactly,
  judgment,
  type PlannedCalls,
  product,
  sumCounts,
  type TokenRange,
  times,
} from './suites/call-pattern.js';
export { findSuite, suiteRegistry } from './suites/registry.js';
export {
  type DatasetContext,
  defineSuite,
  type SampleOutcome,
  type SampleSpec,
  type ScoreContext,
  type Scorer,
  type SolveContext,
  type Suite,
  type SuiteDataset,
  type SuiteDefinition,
  type SuiteMetricSet,
  type SuiteMetrics,
  type SuitePreset,
  type SuiteReport,
  scoreSample,
  suiteJudges,
  type TemplateRef,
} from './suites/suite.js';
