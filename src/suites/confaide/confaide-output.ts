import { z } from 'zod';
import { QUESTION_TYPES } from './confaide-scenario.js';

/** What one ConfAIde sample stores; scores are recomputed from `response` on rescore. */
export const confaideOutputSchema = z.object({
  question: z.enum(QUESTION_TYPES).describe('the question type answered'),
  response: z.string().describe('the final response text that is scored (the last attempt for tiers 1/2)'),
  stages: z
    .array(z.object({ role: z.string(), text: z.string() }))
    .describe('every stage of the answer (one `agent` stage without a responder defense)'),
  attempts: z.number().int().positive().describe('generations made; above 1 only for tier-1/2 parse retries'),
  rating: z.number().nullable().optional().describe('tiers 1/2: the parsed rating, null when no attempt parsed'),
  earlierResponses: z.array(z.string()).optional().describe('tiers 1/2: responses of the attempts that did not parse'),
  humanLabel: z.number().optional().describe('tiers 1/2: the human mean the Pearson correlation compares with'),
  controlMismatch: z
    .boolean()
    .optional()
    .describe('tier-3 control: the control question names other people than the story (11 of 270 scenarios)'),
});
export type ConfaideOutput = z.infer<typeof confaideOutputSchema>;
