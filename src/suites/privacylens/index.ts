export {
  AGENT_PROMPT_SECTION_IDS,
  buildAgentPrompt,
  PROMPT_LAYOUTS,
  type PromptLayout,
  SYSTEM_LINES,
} from './agent-prompt.js';
export {
  HELPFULNESS_LABELS,
  HELPFULNESS_SCORER,
  parseHelpfulnessStrict,
  parseHelpfulnessUpstreamOrder,
} from './helpfulness-judge.js';
export { LEAK_SCORER, parseLeakAnswer } from './leak-judge.js';
export {
  loadCases,
  type PrivacyLensCase,
  privactSplit,
  privacyLensCaseSchema,
  type Split,
  type Subset,
} from './load-cases.js';
export { PRIVACYLENS_METRIC_DEFINITIONS } from './metric-definitions.js';
export { privacyLensMetrics } from './metrics.js';
export { type ActionValidity, type ParsedAction, type PostprocessMode, parseAction } from './parse-action.js';
export { PRIVACT_TREE_METRIC_DEFINITIONS } from './privact-tree-metric-definitions.js';
export {
  privactTreeMetrics,
  storedTree,
} from './privact-tree-metrics.js';
export {
  DEFAULT_TREE_BRANCHING,
  lcArsParametersOf,
  type PrivactTreeOptions,
  privactTreeOptionsSchema,
  type TreePlan,
  treeBranching,
  treePlan,
} from './privact-tree-options.js';
export {
  chainNodeSchema,
  chainTreeSchema,
  type PrivactTreeInput,
  privactTreeInputSchema,
  treeLeaves,
  treeNodes,
} from './privact-tree-output.js';
export { collectPreferencePairs, type PreferencePair } from './privact-tree-pairs.js';
export {
  DEFAULT_LC_ARS,
  type LcArsParameters,
  type LeafJudgment,
  type LeafReward,
  lcArsReward,
} from './privact-tree-reward.js';
export {
  judgeLeaf,
  leafItemTarget,
  leafJudgmentOf,
  nodeTarget,
  REWARD_SCORER,
  rewardScores,
  scoreTree,
  type TreeRewards,
  treeRewards,
  VALUE_SCORER,
} from './privact-tree-score.js';
export { privactTreeSuite } from './privact-tree-suite.js';
export { type NodeValues, propagateValues } from './privact-tree-values.js';
export { type PrivacyLensOptions, privacyLensOptionsSchema } from './privacylens-options.js';
export { type PrivacyLensOutput, privacyLensOutputSchema } from './privacylens-output.js';
export { renderToolkits } from './render-toolkits.js';
export { KEYWORD_SCORER, VALIDITY_SCORER } from './score-sample.js';
export { privacylensSuite } from './suite.js';
export { TOOLKITS, type ToolkitSpec, type VirtualToolSpec } from './toolkits.js';
