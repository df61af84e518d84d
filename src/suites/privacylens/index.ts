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
export { PRIVACYLENS_METRIC_DISPLAY, privacyLensMetrics } from './metrics.js';
export { type ActionValidity, type ParsedAction, type PostprocessMode, parseAction } from './parse-action.js';
export { type PrivacyLensOptions, privacyLensOptionsSchema } from './privacylens-options.js';
export { type PrivacyLensOutput, privacyLensOutputSchema } from './privacylens-output.js';
export { renderToolkits } from './render-toolkits.js';
export { KEYWORD_SCORER, VALIDITY_SCORER } from './score-sample.js';
export { privacylensSuite } from './suite.js';
export { TOOLKITS, type ToolkitSpec, type VirtualToolSpec } from './toolkits.js';
