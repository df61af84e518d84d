export { authorizedAt, authorizedUsersAt, type GroupConfidants } from './authorized-at.js';
export {
  buildStarterCommunity,
  STARTER_SEED,
  STARTER_VOLUMES,
  type StarterCommunity,
} from './build-starter-community.js';
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
export { activeRelationship, isMemberAt, membersAt, relationshipLabel, relationshipsBetween } from './social-graph.js';
export { loadStarterCommunity, STARTER_COMMUNITY_DIR } from './starter-community.js';
export { renderCommunityFiles, writeCommunityFiles } from './write-community.js';
