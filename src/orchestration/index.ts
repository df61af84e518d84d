/**
 * orchestration/: role-chain topologies (`privact.md` §2), the stage prompts each role sees
 * (§3) and the tree-producing chain runner (§4).
 */
export {
  actorInstruction,
  CHAIN_ROLE_TEMPLATES,
  CHAIN_SYSTEM_LINE_TEMPLATE,
  chainStagePrompt,
  createStagePromptBuilder,
  criticInstruction,
  nextActionLine,
  roleSystemLine,
  rolesPhrase,
  type StagePromptBuilder,
  type StagePromptContext,
  SYSTEM_QUALITY,
  type UpstreamOutput,
  upstreamBlock,
  upstreamPhrase,
} from './chain-stage-prompt.js';
export { type ChainVerdict, parseVerdict } from './parse-verdict.js';
export {
  type ChainNode,
  type ChainTree,
  DEFAULT_STAGE_MAX_OUTPUT_TOKENS,
  leafPaths,
  promptIdOf,
  type RunRoleChainOptions,
  runRoleChain,
} from './role-chain.js';
export { loadRoleTemplate, parseRoleTemplate, type RoleTemplate } from './role-template.js';
export {
  contextText,
  formatSections,
  recipientText,
  renderStandalone,
  TASK_SECTION_IDS,
  userRequestText,
} from './task-sections.js';
export {
  CHAIN_ROLES,
  type ChainRole,
  parseBranching,
  parseTopology,
  type RoleKind,
  resolveBranching,
  type StageMember,
  TOPOLOGY_GRAMMAR,
  type Topology,
  type TopologyStage,
} from './topology.js';
