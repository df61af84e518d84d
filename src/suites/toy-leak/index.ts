export { CANARY_SCORER, canaryScorer, type ToyLeakOutput } from './canary-scorer.js';
export { toyLeakMetrics } from './metrics.js';
export { type ToyLeakScenario, toyLeakScenarios } from './scenarios.js';
export { toyLeakSuite } from './suite.js';
export { toyPrompt } from './toy-prompt.js';
