/**
 * The structured form of one agent's PAC prompt (pacbench.md §3): what the base template
 * produces, what variants reshape, and what {@link renderPacPromptPlan} turns into text.
 */

/**
 * Section ids in prompt order (sections 2–7 of §3; the role line and guidelines are separate).
 * `setting` is our N-party addition, present only when the scenario gives a `context`.
 */
export const PAC_PROMPT_SECTION_IDS = [
  'setting',
  'task-goal',
  'goal-requirements',
  'profile',
  'privacy-policy',
  'memory',
  'partner-profile',
] as const;
/** One of {@link PAC_PROMPT_SECTION_IDS}. */
export type PacPromptSectionId = (typeof PAC_PROMPT_SECTION_IDS)[number];

/** One bracketed section: its marker line (e.g. `[Task Goal]`) and its body. */
export type PacPromptSection = { id: PacPromptSectionId; heading: string; body: string };

/**
 * Where a guideline bullet comes from: the general collaboration rules, the privacy block
 * (removed by `no-privacy-instruction`), the opt-in tool hint, or a variant's addition.
 */
export type PacGuidelineBlock = 'general' | 'privacy' | 'tools' | 'variant';

/** One bullet of the `[Collaboration Guidelines]` section, without its leading `- `. */
export type PacGuideline = { block: PacGuidelineBlock; text: string };

/** An agent's prompt before rendering. */
export type PacPromptPlan = {
  /** Section 1: who the agent is and who its partners are. */
  roleLine: string;
  /** Sections 2–7 in order; a variant may drop some (e.g. the policy list). */
  sections: PacPromptSection[];
  /** Section 8's marker line, `[Collaboration Guidelines]`. */
  guidelinesHeading: string;
  guidelines: PacGuideline[];
  /** The first user message of the agent that speaks first; null for the others. */
  kickoff: string | null;
  /** Standalone protocols only: the user message of every later turn. */
  continuation: string | null;
};

/**
 * Renders a plan as the system prompt: the role line, each section as its marker line followed
 * by its body, then the guidelines as `- ` bullets; blocks separated by blank lines. The
 * guidelines section is left out when it has no bullets.
 */
export function renderPacPromptPlan(plan: PacPromptPlan): string {
  const blocks = [plan.roleLine, ...plan.sections.map((section) => `${section.heading}\n${section.body}`)];
  if (plan.guidelines.length > 0) {
    blocks.push(`${plan.guidelinesHeading}\n${plan.guidelines.map((guideline) => `- ${guideline.text}`).join('\n')}`);
  }
  return blocks.join('\n\n');
}
