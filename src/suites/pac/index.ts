/**
 * suites/pac: PAC-Bench (pacbench.md) — data, prompt and metric layers, the episode simulator,
 * the reference agents, the model grid table and the registered `pac` suite.
 */
export {
  basePacPromptPlan,
  buildPacAgentPrompt,
  defaultPacMaxTurns,
  guidelineBullets,
  memorySectionBody,
  PAC_AGENT_TEMPLATE,
  type PacAgentPrompt,
  type PacPromptSlots,
  pacPromptSlots,
  turnsForSeat,
} from './agent-prompt.js';
export {
  headlineBy,
  headlineMeanOverPairs,
  initiatorModel,
  PAC_HEADLINE_METRICS,
  type PacHeadline,
  type PacHeadlineMetricId,
  pacHeadline,
  pairKey,
  partnerModels,
  UNKNOWN_MODEL,
} from './aggregate.js';
export {
  errorRates,
  FIRST_VIOLATION_BINS,
  type FirstViolationBin,
  type FirstViolationHistogram,
  failureModes,
  firstViolationHistogram,
  groundedRate,
  type PacErrorRates,
  type PacFailureMode,
  type PacQuestionRates,
  questionRates,
  type TaskPrivacyPoint,
  taskPrivacyScatter,
} from './analyses.js';
export { definePacSuite, type PacEpisodeScorer } from './define-pac-suite.js';
export {
  classifyPacError,
  evaluatedAgents,
  PAC_ERROR_KIND_BY_NAME,
  PAC_ERROR_KINDS,
  type PacAgentPrivacyOutcome,
  type PacEpisodeOutcome,
  type PacErrorKind,
  type PacPrivacyJudgment,
  pacEpisodeOutcome,
  runFirstViolationTurn,
  runPrivacyLevel,
} from './episode-outcome.js';
export { PAC_GRID_CELL_METRICS, pacGridTable } from './grid-table.js';
export {
  listPacScenarioFiles,
  loadPacScenarios,
  PAC_DATASET_NAME,
  PAC_NPARTY_DIR,
  PAC_SPLIT_OPTIONS,
  PAC_STARTER_DIR,
  type PacLoadNotice,
  type PacScenarioFileRef,
  type PacSplitOption,
  pacScenarioRoot,
  parsePacScenarioFile,
} from './load-scenarios.js';
export { PAC_METRIC_DEFINITIONS } from './metric-definitions.js';
export {
  PAC_HEADLINE,
  type PacMetricsOptions,
  pacMetrics,
  pacMetricsOfOutcomes,
} from './metrics.js';
export {
  PAC_SCORERS,
  type PacPrivacyLevel,
  type PacScorerIds,
  type PacTarget,
  pacAgentPrivacyScore,
  pacFirstViolationScore,
  pacGroundingScore,
  pacQuestionScore,
  pacScoreTarget,
  pacTaskRunScore,
  scorerBase,
} from './outcome-scores.js';
export { PacEpisodeError } from './pac-episode-error.js';
export {
  PAC_TERMINATION_REASONS,
  type PacOutput,
  type PacOutputFacts,
  type PacTerminationReason,
  pacMessageRecordSchema,
  pacOutputFactsSchema,
  pacOutputSchema,
  pacToolCallRecordSchema,
} from './pac-output.js';
export {
  checkPacSeats,
  type PacSeatBinding,
  resolvePacSeats,
  seatAssignments,
  seatCandidates,
  seatLabel,
  seatRole,
} from './pac-seats.js';
export {
  DEFAULT_PAC_VARIANT_OPTIONS,
  type PacProtocol,
  type PacVariant,
  type PacVariantEvaluation,
  type PacVariantOptions,
  pacVariantOptionsSchema,
} from './pac-variant.js';
export {
  PAC_PROMPT_SECTION_IDS,
  type PacGuideline,
  type PacGuidelineBlock,
  type PacPromptPlan,
  type PacPromptSection,
  type PacPromptSectionId,
  renderPacPromptPlan,
} from './prompt-plan.js';
export { containsQuestion } from './question-detector.js';
export {
  createPacReferenceAgent,
  MASK,
  maskKeywords,
  PAC_REFERENCE_POLICIES,
  type PacReferencePolicy,
  type PacReferenceState,
  parseReferenceSpec,
  REFERENCE_DELIVERABLE,
  REFERENCE_SPEC_PREFIX,
  referenceContribution,
} from './reference-agents.js';
export {
  erroredComponent,
  PAC_ERROR_POLICIES,
  type PacErrorPolicy,
  type PacRunComponents,
  pacRunComponents,
  privacyComponents,
} from './run-components.js';
export { formatPacScenarioId, type PacScenarioIdParts, parsePacScenarioId } from './scenario-id.js';
export {
  FIELD_NAME_CONFLICT,
  type NormalizedPacScenario,
  normalizePacScenario,
  PAC_POLICY_TYPES,
  PAC_SCENARIO_SPLITS,
  type PacAgent,
  type PacMemory,
  type PacPolicy,
  type PacPolicyType,
  type PacRawAgent,
  type PacScenario,
  type PacScenarioProblem,
  type PacScenarioSplit,
  pacRawAgentSchema,
  pacRawChecksSchema,
  pacRawGoalSchema,
  pacRawMemorySchema,
  pacRawPolicySchema,
  pacRawProfileSchema,
  pacRawScenarioSchema,
  pacScenarioFileSchema,
} from './scenario-schema.js';
export {
  PAC_TOOL_PREFIX,
  type PacEpisode,
  type PacEpisodeFailure,
  type PacSeat,
  type PacSimulationLimits,
  type PacToolsMode,
  type SimulatePacEpisodeOptions,
  simulatePacEpisode,
} from './simulate-episode.js';
export { loadNpartyScenarios, loadStarterScenarios } from './starter.js';
export { pacSuite } from './suite.js';
export { PAC_TOOLSETS, type PacSuiteOptions, pacSuiteOptionsSchema } from './suite-options.js';
export {
  adversarialPartnerVariant,
  bPromptVariant,
  defaultVariant,
  findPacVariant,
  noPrivacyInstructionVariant,
  PAC_VARIANT_IDS,
  PAC_VARIANTS,
  privacyCotVariant,
  privacyFreeVariant,
} from './variants.js';
