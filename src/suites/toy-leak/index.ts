export { type ToyLeakScenario, toyLeakScenarios } from './scenarios.js';
export { toyLeakSuite } from './suite.js';
