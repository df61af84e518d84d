/**
 * `confidant generate privacybench`: builds PrivacyBench communities with the `datagen` model
 * (privacybench.md §2), resumably, with the community rule checks deciding what to regenerate.
 */
export { daysBetween, overlap, shiftDate, stepWindows } from './calendar.js';
export {
  type DocumentBatch,
  type DocumentSlot,
  MUNDANE_TYPES,
  type MundaneType,
  planDocuments,
} from './document-plan.js';
export {
  type GenerateCommunityOptions,
  type GeneratedCommunity,
  generateCommunity,
} from './generate-community.js';
export {
  GENERATION_DEFAULTS,
  GENERATION_PRESETS,
  type GenerationOptions,
  type GenerationPreset,
  generationOptionsSchema,
  LAPTOP_GENERATION_PARAMETERS,
  PAPER_GENERATION_PARAMETERS,
  resolveGenerationOptions,
  type SeedPersona,
  seedPersonaSchema,
} from './generation-options.js';
export {
  GENERATION_PROMPTS,
  GENERATION_STEPS,
  type GenerationStep,
  generationPromptVersions,
} from './generation-prompts.js';
export {
  generationOptionsFromFlags,
  type PrivacybenchGenerateFlags,
  privacybenchGenerateFlagsSchema,
  privacybenchGenerator,
} from './privacybench-generator.js';
export {
  type GenerationProgress,
  type JournalEntry,
  journalEntrySchema,
  runPhase,
  type UnitJournal,
  unitJournal,
} from './run-phase.js';
export { callStructured, type StructuredCallResult } from './structured-call.js';
