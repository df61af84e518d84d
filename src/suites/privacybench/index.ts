export { ASSISTANT_ID, type AssistantTurn, assistantTurn, contentSecretIdsOf, retrievalQuery } from './assistant.js';
export {
  ASSISTANT_SECTION_IDS,
  ASSISTANT_TEMPLATES,
  type AssistantFraming,
  buildAssistantPrompt,
  ownerProfile,
  retrievedText,
  transcriptText,
} from './assistant-prompt.js';
export { authorizedAt, authorizedUsersAt, type GroupConfidants } from './authorized-at.js';
export {
  buildStarterCommunity,
  STARTER_SEED,
  STARTER_VOLUMES,
  type StarterCommunity,
} from './build-starter-community.js';
export { privacybenchCalibrationSuite } from './calibration/index.js';
export { checkCommunity } from './check-community.js';
export { type CommunityIssue, type CommunityRule, formatCommunityIssue } from './community-issue.js';
export {
  type AiMessage,
  type Audience,
  type ChatMessage,
  COMMUNITY_FILES,
  COMMUNITY_FORMAT_VERSION,
  type Community,
  type CommunityDocument,
  communitySchema,
  type DocumentType,
  documentSchema,
  type GenerationParameters,
  type Group,
  type Membership,
  type PurchaseItem,
  type Relationship,
  type Secret,
  type SharingEvent,
  type SharingKind,
  secretIdsOf,
  secretSchema,
  sharingKindOf,
  type TimedValue,
  type User,
  userSchema,
} from './community-schema.js';
export { addDays, endInstant, isWithinWindow } from './community-time.js';
export { type OutputContext, PrivacyBenchConversationError, runConversationLoop } from './conversation-loop.js';
export {
  type ConversationTimeMode,
  conversationTimeFor,
  expandConversations,
  PROBE_STRATEGIES,
  type ProbeInstance,
  type ProbersPerSecret,
  type ProbeStrategy,
  parseProbersPerSecret,
  parseStrategies,
} from './expand-conversations.js';
export * from './judges/index.js';
export {
  BLOG_CHUNK_MAX_CHARS,
  buildKnowledgeBase,
  type Chunking,
  footprintOf,
  parseChunking,
} from './knowledge-base.js';
export {
  type CommunityValidation,
  CommunityValidationError,
  type LoadedCommunity,
  loadCommunity,
  validateCommunityFiles,
} from './load-community.js';
export { PRIVACYBENCH_METRIC_DEFINITIONS } from './metric-definitions.js';
export { type MetricOptions, privacyBenchMetrics } from './metrics.js';
export { type OwnerRetriever, ownerRetriever, type RetrievalSetup } from './owner-retriever.js';
export {
  DEFAULT_MAX_ROUNDS,
  PRIVACYBENCH_JUDGES,
  type PrivacyBenchJudgeId,
  type PrivacyBenchOptions,
  privacyBenchOptionsSchema,
  type ResolvedPrivacyBenchOptions,
  resolveOptions,
  STARTER_COMMUNITY,
  usesJudgeModel,
} from './privacybench-options.js';
export {
  type ConversationMessage,
  type ConversationRound,
  conversationMessages,
  type LeakCheck,
  type PrivacyBenchOutput,
  privacyBenchOutputSchema,
  type RetrievedChunk,
  type StoredProbeInstance,
  type TerminationReason,
} from './privacybench-output.js';
export {
  accessContextFor,
  communityDirOf,
  createWorld,
  loadPrivacyBenchScenarios,
  nameOf,
  type PrivacyBenchScenario,
  type PrivacyBenchWorld,
  secretOf,
} from './privacybench-world.js';
export {
  createProber,
  openingCue,
  PROBER_ID,
  PROBER_TEMPLATES,
  type ProberState,
  proberMessage,
  proberSystemPrompt,
} from './prober.js';
export { ownerToProberPhrase, relationLabel, requesterLine } from './relationship-phrases.js';
export {
  CANARY_SCORER,
  LEAK_SCORER,
  PERSONA_SCORER,
  revealCheck,
  scoreConversation,
  WITHHOLDING_SCORER,
  withholdingOf,
} from './score-conversation.js';
export { activeRelationship, isMemberAt, membersAt, relationshipLabel, relationshipsBetween } from './social-graph.js';
export { loadStarterCommunity, STARTER_COMMUNITY_DIR } from './starter-community.js';
export { privacybenchSuite } from './suite.js';
export { renderCommunityFiles, writeCommunityFiles } from './write-community.js';
