export { type ConfaideOptions, confaideOptionsSchema } from './confaide-options.js';
export { type ConfaideOutput, confaideOutputSchema } from './confaide-output.js';
export type {
  ConfaideScenario,
  ConfaideTier,
  MeetingScenario,
  QuestionType,
  RatingItem,
  StoryScenario,
} from './confaide-scenario.js';
export { confaideSuite } from './suite.js';
