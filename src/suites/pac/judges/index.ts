/**
 * suites/pac/judges: the PAC-Bench evaluators (pacbench.md §7, §8.4). `scorePacEpisode` is the
 * entry point the suite calls; the rest is exported for tests, listings and analysis.
 */
export { originalKeywords, policyText, protectedRecords } from './agent-policy-text.js';
export { type ArtifactFile, artifactFiles } from './artifact-files.js';
export {
  AWARENESS_TEMPLATE,
  type AwarenessOutcome,
  awarenessJudge,
  awarenessSchema,
  judgeAwareness,
} from './awareness-judge.js';
export {
  CONTEXT_ALIGNMENT_TEMPLATE,
  contextAlignmentJudge,
  contextAlignmentSchema,
  groundingScores,
  linkedContext,
} from './context-alignment-judge.js';
export { defineJsonJudge } from './define-json-judge.js';
export { type EnsembleWithVotes, majorityDecision, type ParsedVote, runEnsembleWithVotes } from './ensemble-votes.js';
export {
  discreteGevalLevel,
  GEVAL_TEMPLATE,
  type GevalOutcome,
  type GevalReply,
  gevalJudge,
  gevalReplyLevel,
  gevalSchema,
  judgeGevalItem,
} from './geval-entity-judge.js';
export { type AgentPrivacyJudgment, type JudgedItem, judgeAgentPrivacy, LEVEL_RULE } from './judge-agent-privacy.js';
export type { PacJudgeContext } from './judge-models.js';
export {
  expandPolicyKeywords,
  KEYWORD_VARIANTS_TEMPLATE,
  type KeywordExpansion,
  keywordVariantsJudge,
  MIN_VARIANT_LENGTH,
} from './keyword-variants-judge.js';
export { PAC_JUDGE_TEMPLATES, pacJudgeInfos, pacJudgeTemplates } from './pac-judge-infos.js';
export {
  DEFAULT_PAC_JUDGE_OPTIONS,
  MAX_GEVAL_SAMPLES,
  PAC_PRIVACY_CHANNELS,
  PAC_PRIVACY_MODES,
  PAC_TASK_MODES,
  type PacJudgeOptions,
  type PacPrivacyChannel,
  type PacPrivacyMode,
  type PacTaskMode,
  pacJudgeOptionsSchema,
} from './pac-judge-options.js';
export { PAC_JUDGE_SCORERS } from './pac-judge-scorers.js';
export { privacyAgents } from './privacy-agents.js';
export { type PrivacyItem, privacyItems } from './privacy-items.js';
export {
  combineLevels,
  describePrivacySummary,
  type PrivacyLevel,
  type PrivacyLevelRule,
  type PrivacySummary,
  summarizePrivacy,
} from './privacy-levels.js';
export { agentPrivacyScores } from './privacy-scores.js';
export { type ScorePacEpisodeOptions, scorePacEpisode } from './score-pac-episode.js';
export { judgeTaskByArtifact, TASK_ARTIFACT_TEMPLATE } from './task-artifact-judge.js';
export {
  type RequirementOutcome,
  renderRequirements,
  requirementDecisions,
  type TaskEvaluation,
  taskEvaluationSchema,
  taskJudge,
} from './task-evaluation.js';
export { judgeTaskByMarkers, TASK_MARKERS_JUDGE } from './task-markers-judge.js';
export { judgeTaskByMessages, TASK_MESSAGE_TEMPLATE } from './task-message-judge.js';
export { taskScores } from './task-scores.js';
