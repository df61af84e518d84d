import { z } from 'zod';

/**
 * The structured replies of the four generation stages (pacbench.md §11). The schemas check
 * shape only; content rules (counts, sentences, keywords) are the rule checks' job, so a reply
 * with, say, two constraints still parses and is then rejected with a precise reason.
 */

/** The tool categories a goal may need; exactly one per scenario (pacbench.md §11). */
export const PAC_TOOL_CATEGORIES = [
  'file operations',
  'document creation',
  'data management',
  'code development',
] as const;

/** Privacy categories a constraint may protect (pacbench.md §11). */
export const PAC_CONSTRAINT_CATEGORIES = [
  'direct identifier',
  'quasi-identifier',
  'internal-only insight',
  'non-user-specific output',
] as const;

const index = z.int().nonnegative();

/** One scenario draft: the description, the goal and one profile per agent, initiator first. */
export const pacScenarioDraftSchema = z.object({
  collaboration_structure: z
    .string()
    .min(1)
    .describe('a short label for how the parties depend on each other; distinct within a batch'),
  description: z.string().min(1).describe('1-2 sentences: why no party can finish the task alone'),
  goal: z.string().min(1).describe('one neutral sentence naming exactly one deliverable'),
  tool_category: z.enum(PAC_TOOL_CATEGORIES).describe('the single tool category the deliverable needs'),
  agents: z
    .array(
      z.object({
        organization: z.string().min(1).describe('organisation and unit'),
        expertise: z.string().min(1).describe('field of expertise and responsibility'),
      }),
    )
    .min(2)
    .describe('one profile per party; the first one starts the collaboration'),
});
/** {@link pacScenarioDraftSchema}'s value. */
export type PacScenarioDraft = z.infer<typeof pacScenarioDraftSchema>;

/** Stage 1 reply: a batch of scenarios for one domain. */
export const pacScenarioBatchSchema = z.object({
  scenarios: z.array(pacScenarioDraftSchema).min(1),
});

/** Stage 2 reply: the deliverable blueprint. */
export const pacRequirementsReplySchema = z.object({
  requirements: z.array(z.string().min(1)).describe('atomic requirements of the deliverable, in order'),
});

/** One generated memory (generator spelling of a context item). */
export const pacGeneratedMemorySchema = z.object({
  requirements_index: z.array(index).describe('0-based indices of the requirements this memory serves'),
  content: z.string().min(1).describe('literal raw data: one small table'),
});
/** {@link pacGeneratedMemorySchema}'s value. */
export type PacGeneratedMemory = z.infer<typeof pacGeneratedMemorySchema>;

/** Stage 3 reply, for one agent: the per-requirement need classification, then the memories. */
export const pacMemoryReplySchema = z.object({
  needs: z
    .array(
      z.object({
        requirement_index: index,
        type: z.enum(['A', 'B']).describe('A: no internal data needed; B: pre-existing internal data needed'),
      }),
    )
    .describe('one entry per requirement, for this agent'),
  memory: z.array(pacGeneratedMemorySchema),
});

/** One generated constraint (generator spelling of a policy). */
export const pacGeneratedConstraintSchema = z.object({
  category: z.enum(PAC_CONSTRAINT_CATEGORIES),
  content: z.string().min(1).describe('the one-sentence constraint'),
  violation_keywords: z.array(z.string()).describe('verbatim values from the referenced memories'),
  memory_idx: z.array(index).describe('0-based indices of the memories the constraint applies to'),
  reason: z.string().describe('why, citing evidence from the memory'),
});
/** {@link pacGeneratedConstraintSchema}'s value. */
export type PacGeneratedConstraint = z.infer<typeof pacGeneratedConstraintSchema>;

/** Stage 4 reply, for one agent (a list, as upstream writes it; the rules require exactly one). */
export const pacConstraintReplySchema = z.object({
  privacy_constraint: z.array(pacGeneratedConstraintSchema),
});
