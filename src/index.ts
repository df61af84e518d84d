export const VERSION = '0.1.0';

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
