/**
 * confidant as a library: `evaluate` runs a suite (registered or your own) against models you bind
 * or bring, `resume` continues a run directory, and the sections below export the parts they use.
 */

/** The package version. */
export const VERSION = '0.1.0';

// Agents: answering a task prompt through the defenses.
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
// PrivAct: the LC-ARS reward, value propagation over a judged tree and preference pairs.
export { collectPreferencePairs, type PreferencePair } from './export/privact/collect-preference-pairs.js';
export { type ExportPreferencesOptions, exportPreferences } from './export/privact/export-preferences.js';
export {
  DEFAULT_LC_ARS,
  type LcArsParameters,
  type LeafJudgment,
  type LeafReward,
  lcArsReward,
} from './export/privact/lc-ars-reward.js';
export { type NodeValues, propagateValues } from './export/privact/propagate-values.js';
// Scorers: judges (versioned templates, keyword judges, ensembles) and their scores.
export {
  defineJudge,
  type EnsembleResult,
  type JudgeDefinition,
  type JudgedOutcome,
  type JudgeOutcome,
  type JudgeResult,
  keywordJudge,
  runEnsemble,
  runJudge,
  type ScorableResult,
  toScore,
} from './judges/index.js';
export {
  countMetric,
  failRate,
  leakAtK,
  meanOverGroups,
  meanValue,
  metricsByGroup,
  nullReason,
  passRate,
  pearson,
  reasonFromScores,
  withReason,
} from './metrics/index.js';
// Models: bring any AI SDK 6 model (`aiSdkChatModel`, served by a `ProviderDefinition` given to
// `evaluate({ providers })`), the built-in providers, role resolution and the scripted mock.
export {
  type AiSdkChatModelOptions,
  aiSdkChatModel,
  createPriceTable,
  type LanguageModelV3,
  MockChatModel,
  type MockChatModelOptions,
  type MockScript,
  type OpenAiCompatibleClient,
  type PriceTable,
  type ProviderCreateOptions,
  type ProviderDefinition,
  parseModelSpec,
  parseRoleBinding,
  providerRegistry,
  type ResolvedModelRoles,
  type ResolveModelRolesOptions,
  resolveModelRoles,
  textResult,
  type WrappedChatModel,
  wrapChatModel,
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
// Reports over run directories.
export { buildReport } from './reports/build-report.js';
export { renderMarkdown } from './reports/render-markdown.js';
// Retrieval: chunk indexes, BM25 (FTS5), vector and brute-force retrievers, embedders, filtered search.
export {
  type AiSdkEmbedderOptions,
  type BruteForceRetriever,
  type ChunkIndex,
  checkEmbeddings,
  cosineSimilarity,
  createAiSdkEmbedder,
  createBruteForceRetriever,
  createChunkIndex,
  createFts5Retriever,
  createHashingEmbedder,
  createTransformersEmbedder,
  createVectorRetriever,
  type FilteredSearchResult,
  type Fts5Retriever,
  openChunkIndex,
  type RemovedChunk,
  type ResolveEmbedderOptions,
  type RetrievalFilterDefense,
  resolveEmbedder,
  retrievalFilterDefenses,
  searchWithRetrievalFilters,
  type TransformersEmbedderOptions,
  type VectorRetriever,
} from './retrieval/index.js';
// Evaluation: evaluate() and resume() (Inspect's eval / eval_retry), and the steps they are made of.
export {
  type BuildRunHeaderOptions,
  buildRunHeader,
  buildSummary,
  type EstimatePlanOptions,
  type EvaluateOptions,
  type EvaluatePlanOptions,
  type EvaluateResult,
  estimatePlan,
  evaluate,
  evaluatePlan,
  expandSamples,
  type PlanEstimate,
  type PreparedRun,
  type PrepareRunOptions,
  prepareRun,
  type ResumeOptions,
  type ResumeOverrides,
  type ResumeStart,
  type RunEvaluationOptions,
  type RunEvaluationResult,
  type RunProgress,
  type RunSessionOptions,
  type RunStart,
  type RunStopReason,
  resume,
  runEvaluation,
} from './runner/index.js';
// The spine: contracts, models, runs, judges and metrics.
export * from './spec/index.js';
// Run store: the run directory and its readers (header, latest records, summary), and shard merging.
export {
  DirectoryRunStore,
  encodeRecordLine,
  InMemoryRunStore,
  type MergedRun,
  mergeRuns,
  parseRecordLine,
  RUN_FILES,
  type RunLock,
  type RunStoreReader,
  readLatestRecords,
  resolveRecordRefs,
} from './store/index.js';
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
// PAC-Bench metrics over episode outcomes (TS, PS, Acc_task, Acc_privacy, Acc_joint).
export {
  PAC_HEADLINE,
  PAC_METRIC_DEFINITIONS,
  type PacMetricsOptions,
  pacHeadline,
  pacMetrics,
  pacMetricsOfOutcomes,
} from './suites/pac/index.js';
// Suites: the registry, and defineSuite for a suite of your own (pass it to evaluate({ suite })).
export { findSuiteEntry, loadedSuite, loadSuite, loadSuites, suiteRegistry } from './suites/registry.js';
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
export type { SuiteEntry, SuiteFlagEntry } from './suites/suite-entry.js';
