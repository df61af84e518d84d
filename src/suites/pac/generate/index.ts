/**
 * suites/pac/generate: the PAC-Bench scenario-generation pipeline (pacbench.md §11) behind
 * `confidant generate pac`: four structured-output stages, pure rule checks, targeted
 * regeneration, a resumable journal, and output in the layout the suite loads.
 */
export {
  assemblePacScenarioFile,
  type PacScenarioAgentJson,
  type PacScenarioFileJson,
} from './assemble-scenario-file.js';
export { checkAgentMemories, checkAgentPolicies } from './check-agent-parts.js';
export { checkPacScenario } from './check-pac-scenario.js';
export { checkRequirementsPart, checkScenarioPart } from './check-task-parts.js';
export {
  PAC_GENERATE_USAGE,
  type PacGenerateOptions,
  type PacGenerateOptionsInput,
  type PacGenerationUnit,
  pacDomainDirName,
  pacDomainDisplayName,
  pacGeneratedDataDir,
  pacGenerateFlagsSchema,
  pacGenerateOptionsSchema,
  pacGenerationUnits,
} from './generate-options.js';
export {
  type GeneratePacScenariosOptions,
  generatePacScenarios,
  type PacGenerationResult,
  type PacRejectedUnit,
  pacGenerationOutcome,
} from './generate-pac-scenarios.js';
export type { PacGenerateEvent } from './generation-context.js';
export {
  openPacGenerationJournal,
  type PacGenerationJournal,
  type PacGenerationPlan,
  type PacJournalLine,
  type PacUnitRecord,
} from './generation-journal.js';
export { PAC_GENERATION_TEMPLATES, pacGenerationPromptVersions } from './generation-prompts.js';
export { pacGenerator } from './pac-generator.js';
export {
  formatPacRuleIssue,
  MEMORY_MAX_CHARS,
  MEMORY_MIN_CHARS,
  PAC_GENERATION_STAGES,
  PAC_REQUIREMENT_COUNT,
  type PacAgentFieldNames,
  type PacCheckMemory,
  type PacCheckPolicy,
  type PacGenerationStage,
  type PacRuleId,
  type PacRuleIssue,
  type PacRuleOptions,
  pacRuleIssue,
  SIMULATOR_FIELDS,
} from './pac-rule-issue.js';
export {
  PAC_CONSTRAINT_CATEGORIES,
  PAC_TOOL_CATEGORIES,
  type PacGeneratedConstraint,
  type PacGeneratedMemory,
  type PacScenarioDraft,
  pacConstraintReplySchema,
  pacMemoryReplySchema,
  pacRequirementsReplySchema,
  pacScenarioBatchSchema,
  pacScenarioDraftSchema,
} from './stage-schemas.js';
