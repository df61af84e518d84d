/**
 * generation/: the one framework every suite's data generator is built on — a resumable journal
 * (the run store's JSON-lines contract), a checked-stage runner with targeted regeneration, a
 * structured model call (zod-validated JSON, retried when a reply does not parse) and one error.
 */
export { GenerationError } from './generation-error.js';
export {
  GENERATION_DIR,
  GENERATION_JOURNAL_FILE,
  GENERATION_PLAN_FILE,
  type GenerationJournal,
  type GenerationPlan,
  openGenerationJournal,
} from './generation-journal.js';
export {
  type DataGenerator,
  defineGenerator,
  type GeneratorContext,
  type GeneratorFlagMeta,
  type GeneratorResult,
} from './generator.js';
export {
  type CheckedItem,
  type CheckedOutcome,
  runCheckedStage,
  type StageFeedback,
  type StageTry,
  type TaskLimit,
} from './run-checked-stage.js';
export {
  parseStructuredReply,
  requestStructuredReply,
  responseJsonSchema,
  type StructuredReply,
} from './structured-call.js';
export { writeFileAtomic } from './write-file-atomic.js';
