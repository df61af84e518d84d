/**
 * defenses/: registered defenses (`--defense`) and the `privacyGuard` AI SDK middleware that
 * brings the same role chains to applications.
 */

export {
  type AccessControlledRetrievalDefense,
  type AccessDecision,
  type AccessPolicy,
  accessControlledRetrievalDefense,
  createAccessControlledRetrieval,
  decideChunkAccess,
  searchWithAccessControl,
} from './access-controlled-retrieval.js';
export type { DefenseEntry, DefenseParameter } from './defense-entry.js';
export { generationStream } from './generation-stream.js';
export { conversationText, GUARD_INSTRUCTION, generationText, guardTaskPrompt } from './guard-task-prompt.js';
export {
  createOneTwoThreeCheck,
  type OneTwoThreeCheckVariant,
  oneTwoThreeCheckFromParameter,
} from './one-two-three-check.js';
export { AIFC_TEMPLATES, cleanCheckPrompt, upstreamCheckPrompt } from './one-two-three-check-prompts.js';
export {
  type PrivacyGuardOptions,
  type PrivacyGuardReport,
  type PrivacyGuardVerdict,
  privacyGuard,
} from './privacy-guard-middleware.js';
export { GENERIC_PRIVACY_INSTRUCTION, privacyEnhancedPrompt, privacyPromptDefense } from './privacy-prompt.js';
export { defenseRegistry, resolveDefense } from './registry.js';
export { answerWithChain, createRoleChainDefense } from './role-chain-defense.js';
export { vanillaDefense } from './vanilla.js';
