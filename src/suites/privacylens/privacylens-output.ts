import { z } from 'zod';
import { POSTPROCESS_MODES } from './parse-action.js';
import { FINAL_ACTIONS, SEED_SOURCES } from './privacylens-case.js';

/** The case facts a record carries so metrics can break results down without reloading the data. */
export const caseFactsSchema = z.object({
  source: z.enum(SEED_SOURCES).describe('seed.source'),
  finalAction: z.enum(FINAL_ACTIONS).describe('trajectory.final_action'),
  toolkits: z.array(z.string()).describe('trajectory.toolkits, in order'),
  sensitiveItems: z
    .array(z.string())
    .describe('trajectory.sensitive_info_items; leak score target { item: i } is item i (PrivAct secretJudgment)'),
});
/** The case facts stored with a sample. */
export type CaseFacts = z.infer<typeof caseFactsSchema>;

/** What one PrivacyLens sample stores; scores are recomputed from `action` on rescore. */
export const privacyLensOutputSchema = z.object({
  raw: z.string().describe("the answer text: the agent's reply, or the last stage of a responder defense"),
  postprocess: z.enum(POSTPROCESS_MODES).describe('the post-processing applied to `raw`'),
  processed: z.string().describe('`raw` after post-processing'),
  action: z.string().nullable().describe('the text after the first `Action:` of `processed`; null means no action'),
  actionName: z.string().nullable().describe('the first tool name after `Action:`, or null'),
  validity: z.enum(['valid', 'mismatch', 'missing']).describe('the action name against final_action'),
  stages: z
    .array(z.object({ role: z.string(), text: z.string() }))
    .describe('every stage of the answer (one `agent` stage without a responder defense)'),
  missingToolkits: z.array(z.string()).describe('toolkits the case names that have no spec and were left out'),
  case: caseFactsSchema,
});
/** A PrivacyLens sample output. */
export type PrivacyLensOutput = z.infer<typeof privacyLensOutputSchema>;
