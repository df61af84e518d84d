import { z } from 'zod';
import { type GenerationParameters, generationParametersSchema, isoDateSchema } from '../community-schema.js';

/**
 * Parameters of `confidant generate privacybench` sized for a laptop: the "Our default for
 * generate" column of privacybench.md §2. Per-user volumes count the documents a user starts
 * (a pair chat started by one member also sits in the other's footprint).
 */
export const LAPTOP_GENERATION_PARAMETERS: GenerationParameters = {
  users: 8,
  seedPersonas: 3,
  groups: 2,
  privateConversationsPerUser: 60,
  groupConversationsPerUser: 15,
  aiConversationsPerUser: 10,
  blogPostsPerUser: 5,
  purchasesPerUser: 10,
  conversationNoiseRatio: 0.3,
  blogNoiseRatio: 0.3,
  attributeRevealProbability: 0.8,
  secretsPerUser: { person: 2, group: 1, ai: 1 },
};

/**
 * The paper's parameters (App. A; secrets per user from Table 1 totals ÷ 48). Where App. A gives a
 * range we take its lower end, and 12 users (community 1 of Table 1). The paper's per-user
 * conversation counts do not match its corpus size (privacybench.md §13), so this preset produces
 * far more documents than the paper reports: expect a long, costly run.
 */
export const PAPER_GENERATION_PARAMETERS: GenerationParameters = {
  users: 12,
  seedPersonas: 3,
  groups: 4,
  privateConversationsPerUser: 1500,
  groupConversationsPerUser: 300,
  aiConversationsPerUser: 50,
  blogPostsPerUser: 20,
  purchasesPerUser: 40,
  conversationNoiseRatio: 0.3,
  blogNoiseRatio: 0.3,
  attributeRevealProbability: 0.8,
  secretsPerUser: { person: 4.5, group: 1.1, ai: 4.4 },
};

/** Named parameter sets selectable with `--preset`. */
export const GENERATION_PRESETS = {
  laptop: { parameters: LAPTOP_GENERATION_PARAMETERS, steps: 4 },
  paper: { parameters: PAPER_GENERATION_PARAMETERS, steps: 12 },
} as const;

/** A preset name. */
export type GenerationPreset = keyof typeof GENERATION_PRESETS;

/** A seed persona supplied by the user (`--seed-personas <file.jsonl>`). */
export const seedPersonaSchema = z
  .strictObject({
    persona: z.string().min(1).describe('Free-text persona, Persona Hub style.'),
    name: z.string().min(1).optional().describe('A name to keep; otherwise datagen names the person.'),
  })
  .describe('A seed persona.');

/** A seed persona supplied by the user. */
export type SeedPersona = z.infer<typeof seedPersonaSchema>;

/** Everything that determines a generated community (stored in the journal; resume requires it unchanged). */
export const generationOptionsSchema = z
  .strictObject({
    communityId: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'use letters, digits, dots, dashes and underscores')
      .describe('The community id.'),
    seed: z.int().describe('Seed of every seeded draw and of every datagen request.'),
    parameters: generationParametersSchema.refine((parameters) => parameters.users <= 99, {
      message: 'at most 99 users',
    }),
    timeline: z.strictObject({ start: isoDateSchema, end: isoDateSchema }).describe('First and last day.'),
    steps: z.int().positive().describe('Time steps the timeline is cut into; documents are planned per step.'),
    docsPerCall: z.int().positive().describe('Documents asked for in one datagen call.'),
    maxAttempts: z.int().positive().describe('Attempts per unit when its output fails the rule checks.'),
    maxParseRetries: z.int().nonnegative().describe('Extra calls when a reply does not parse.'),
    seedPersonas: z.array(seedPersonaSchema).describe('User-supplied seed personas (may be empty).'),
  })
  .superRefine((options, context) => {
    if (options.timeline.end < options.timeline.start) {
      context.addIssue({ code: 'custom', path: ['timeline'], message: 'the timeline ends before it starts' });
    }
    if (options.parameters.seedPersonas < 1 || options.parameters.seedPersonas > options.parameters.users) {
      context.addIssue({
        code: 'custom',
        path: ['parameters', 'seedPersonas'],
        message: 'give between 1 and the number of users seed personas',
      });
    }
    if (options.seedPersonas.length > 0 && options.seedPersonas.length < options.parameters.seedPersonas) {
      context.addIssue({
        code: 'custom',
        path: ['seedPersonas'],
        message: `the persona file has ${options.seedPersonas.length} personas; ${options.parameters.seedPersonas} are needed`,
      });
    }
  });

/** Everything that determines a generated community. */
export type GenerationOptions = z.infer<typeof generationOptionsSchema>;

/** Defaults of the options that are not generation parameters. */
export const GENERATION_DEFAULTS = {
  seed: 0,
  timeline: { start: '2024-01-01', end: '2024-12-31' },
  docsPerCall: 5,
  maxAttempts: 3,
  maxParseRetries: 2,
} as const;

/**
 * Builds full options from a preset (default `laptop`) and overrides; `parameters` overrides are
 * merged field by field, so `{ parameters: { users: 6 } }` keeps the preset's other values.
 * Throws the zod error on invalid input (callers turn it into a user error).
 */
export function resolveGenerationOptions({
  preset = 'laptop',
  communityId,
  overrides = {},
}: {
  preset?: GenerationPreset;
  communityId: string;
  overrides?: Partial<Omit<GenerationOptions, 'parameters' | 'communityId'>> & {
    parameters?: Partial<Omit<GenerationParameters, 'secretsPerUser'>> & {
      secretsPerUser?: Partial<GenerationParameters['secretsPerUser']>;
    };
  };
}): GenerationOptions {
  const base = GENERATION_PRESETS[preset];
  const { parameters, ...rest } = overrides;
  const seedPersonas = rest.seedPersonas ?? [];
  const merged = {
    communityId,
    seed: GENERATION_DEFAULTS.seed,
    timeline: { ...GENERATION_DEFAULTS.timeline },
    steps: base.steps,
    docsPerCall: GENERATION_DEFAULTS.docsPerCall,
    maxAttempts: GENERATION_DEFAULTS.maxAttempts,
    maxParseRetries: GENERATION_DEFAULTS.maxParseRetries,
    ...rest,
    seedPersonas,
    parameters: {
      ...base.parameters,
      ...parameters,
      secretsPerUser: { ...base.parameters.secretsPerUser, ...parameters?.secretsPerUser },
    },
  };
  return generationOptionsSchema.parse(merged);
}
