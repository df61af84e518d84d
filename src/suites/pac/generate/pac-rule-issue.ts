import type { PacPolicyType } from '../scenario-schema.js';

/**
 * The vocabulary of the PAC generation rule checks (pacbench.md §11): stages, rule ids, issues
 * and the options the rules take.
 */

/** The four generation stages, in pipeline order (pacbench.md §11). */
export const PAC_GENERATION_STAGES = ['scenario', 'requirements', 'memory', 'constraint'] as const;
/** One of {@link PAC_GENERATION_STAGES}. */
export type PacGenerationStage = (typeof PAC_GENERATION_STAGES)[number];

/** The rule ids an issue can name. */
export type PacRuleId =
  | 'schema'
  | 'agent-count'
  | 'description-sentences'
  | 'goal-sentence'
  | 'goal-topic'
  | 'profile-distinct'
  | 'scenario-duplicate'
  | 'requirement-count'
  | 'requirement-placeholder'
  | 'requirement-vague'
  | 'requirement-duplicate'
  | 'memory-required'
  | 'memory-requirements'
  | 'memory-adjacent'
  | 'memory-shape'
  | 'memory-privacy-cue'
  | 'index-range'
  | 'policy-count'
  | 'policy-sentence'
  | 'policy-conjunction'
  | 'policy-wording'
  | 'policy-memories'
  | 'policy-reason'
  | 'keyword-required'
  | 'keyword-verbatim'
  | 'keyword-generic'
  | 'keyword-in-task'
  | 'memory-keyword';

/**
 * One broken rule: `path` is the field (`scenario.agent_a.privacy_policy.0.violation_keywords.2`),
 * `stage` the generation stage that produces it and `agent` the agent key for per-agent stages,
 * so a generator can regenerate exactly what failed.
 */
export type PacRuleIssue = {
  path: string;
  rule: PacRuleId;
  message: string;
  stage: PacGenerationStage;
  agent?: string;
};

/** What the rules expect beyond the file itself. Absent fields skip their rule. */
export type PacRuleOptions = {
  /** Requirements per goal (pacbench.md §11: exactly 5). Default 5. */
  requirementCount?: number;
  /** Agents per scenario; absent accepts any count of at least two. */
  agentCount?: number;
  /** The constraint type, which fixes the policy wording; absent skips `policy-wording`. */
  policyType?: PacPolicyType;
};

/** The default `requirementCount` (upstream `REQUIREMENTS_MAX_COUNT`). */
export const PAC_REQUIREMENT_COUNT = 5;

/** Memory content bounds: the paper data ranges from 170 to 5,172 characters. */
export const MEMORY_MIN_CHARS = 40;
/** See {@link MEMORY_MIN_CHARS}. */
export const MEMORY_MAX_CHARS = 6000;

/** One memory as the rules see it (either spelling of the file). */
export type PacCheckMemory = { requirements_index: readonly number[]; content: string };
/** One policy as the rules see it (`memory_idx` is either spelling of the index list). */
export type PacCheckPolicy = {
  content: string;
  violation_keywords: readonly string[];
  memory_idx: readonly number[];
  reason: string;
};

/** Field names of one agent in paths: the simulator spelling unless the file used the generator one. */
export type PacAgentFieldNames = {
  memory: 'context' | 'memory';
  policy: 'privacy_policy' | 'privacy_constraint';
  index: 'context_idx' | 'memory_idx';
};

/** The simulator spelling, which generated files use. */
export const SIMULATOR_FIELDS: PacAgentFieldNames = {
  memory: 'context',
  policy: 'privacy_policy',
  index: 'context_idx',
};
/** Builds an issue; `agent` is kept only when given (per-agent stages). */
export function pacRuleIssue({ agent, ...rest }: PacRuleIssue): PacRuleIssue {
  return agent === undefined ? rest : { ...rest, agent };
}

/** One line per issue, for feedback prompts and rejection reasons: `path: message [rule]`. */
export function formatPacRuleIssue(entry: PacRuleIssue): string {
  return `${entry.path}: ${entry.message} [${entry.rule}]`;
}
