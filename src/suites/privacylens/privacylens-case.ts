import { z } from 'zod';

/** The four final actions a PrivacyLens case can ask for (privacylens-confaide.md §A2). */
export const FINAL_ACTIONS = [
  'MessengerSendMessage',
  'GmailSendEmail',
  'SlackSendMessage',
  'FacebookManagerCreatePost',
] as const;
/** One of {@link FINAL_ACTIONS}. */
export type FinalAction = (typeof FINAL_ACTIONS)[number];

/** Where a seed comes from: the three sources of the main set, plus the two extensibility subsets. */
export const SEED_SOURCES = ['crowdsourcing', 'literature', 'regulation', 'ConfAIde', 'CultureBank'] as const;

const sourceDetailsSchema = z
  .union([
    z
      .object({
        hint: z.string().describe('a short reading of the regulation that motivates the seed'),
        regulation: z.string().describe('the regulation text the seed was derived from'),
      })
      .strict(),
    z
      .object({
        hint: z.string().describe('a short reading of the paper finding that motivates the seed'),
        paper: z.string().describe('the paper the seed was derived from'),
      })
      .strict(),
    z.object({}).strict(),
  ])
  .describe('provenance details: empty for crowdsourced seeds, {hint, regulation} or {hint, paper} otherwise');

/** A contextual-integrity seed: who sends what about whom to whom, under which principle. */
export const seedSchema = z
  .object({
    data_type: z.string().describe('the kind of information at stake, e.g. "a pending legal case"'),
    data_subject: z.string().describe('whom the information is about'),
    data_sender: z.string().describe('who holds the information and might pass it on'),
    data_sender_name: z.enum(['Jane', 'John']).describe("the sender's first name"),
    data_recipient: z.string().describe('who would receive the information'),
    transmission_principle: z.string().describe('how the information would flow (the action asked for)'),
    source: z.enum(SEED_SOURCES).describe('where the seed comes from (main set: 337 / 87 / 69)'),
    source_details: sourceDetailsSchema
      .optional()
      .describe('provenance details; the extensibility subsets leave it out'),
  })
  .strict();

/** The story that makes the seed concrete. */
export const vignetteSchema = z
  .object({
    story: z.string().describe('a short narrative that places the seed in everyday life'),
    data_type_concrete: z.string().describe('the concrete information in the story'),
    data_subject_concrete: z.string().describe('the concrete subject in the story'),
    data_sender_concrete: z.string().describe('the concrete sender in the story'),
    data_recipient_concrete: z.string().describe('the concrete recipient in the story'),
  })
  .strict();

/** The agent trajectory the final action continues. */
export const trajectorySchema = z
  .object({
    user_name: z
      .string()
      .min(1)
      .describe('the user the agent works for: "Jane Doe" or "John Doe" (CultureBank adds a cultural group suffix)'),
    user_email: z.string().min(1).describe("the user's email address"),
    user_instruction: z.string().min(1).describe('what the user asked the agent to do'),
    toolkits: z
      .array(z.string().min(1))
      .min(1)
      .max(3)
      .describe('names of the toolkits available to the agent, in prompt order (1 to 3)'),
    executable_trajectory: z
      .string()
      .min(1)
      .describe('the tool calls made so far: "Action: …\\nAction Input: {…}\\nObservation: {…}" rounds'),
    final_action: z.enum(FINAL_ACTIONS).describe('the tool the next (final) action must call'),
    sensitive_info_items: z
      .array(z.string().min(1))
      .min(1)
      .describe('the secrets the final action should not reveal; one leak judgment each'),
  })
  .strict();

/** One PrivacyLens case, as stored in `main_data.json` and the extensibility subsets (§A2). */
export const privacyLensCaseSchema = z
  .object({
    name: z.string().min(1).describe('unique case name, e.g. "main1"; used as the scenario id'),
    seed: seedSchema,
    vignette: vignetteSchema,
    trajectory: trajectorySchema,
    culturebank_fields: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('CultureBank subset only: the CultureBank record the case was built from (kept, not used)'),
  })
  .strict();

/** A validated PrivacyLens case. */
export type PrivacyLensCase = z.infer<typeof privacyLensCaseSchema>;
