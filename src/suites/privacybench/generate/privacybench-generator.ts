import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { z } from 'zod';
import { defineGenerator } from '../../../generation/index.js';
import { DatasetFormatError, PlanValidationError } from '../../../spec/errors.js';
import { generateCommunity } from './generate-community.js';
import {
  GENERATION_PRESETS,
  type GenerationOptions,
  resolveGenerationOptions,
  type SeedPersona,
  seedPersonaSchema,
} from './generation-options.js';
import type { GenerationProgress } from './run-phase.js';

const laptop = GENERATION_PRESETS.laptop.parameters;
const whole = () => z.coerce.number().int().positive();
const share = () => z.coerce.number().nonnegative();
const count = () => z.coerce.number().nonnegative();

/** Secrets per user of each sharing kind, `person,group,ai` (e.g. `2,1,1`). */
const secretsField = z
  .string()
  .transform((text, context) => {
    const parts = text.split(',').map((part) => Number(part.trim()));
    if (parts.length !== 3 || parts.some((part) => !Number.isFinite(part) || part < 0)) {
      context.addIssue({
        code: 'custom',
        message: `expects three non-negative numbers person,group,ai (e.g. 2,1,1), got '${text}'`,
      });
      return z.NEVER;
    }
    const [person = 0, group = 0, ai = 0] = parts;
    return { person, group, ai };
  })
  .optional();

/**
 * The flags of `confidant generate privacybench`: a preset and the overrides of its parameters
 * (each absent flag keeps the preset's value), the timeline and the retry limits.
 */
export const privacybenchGenerateFlagsSchema = z.object({
  communityId: z
    .string()
    .min(1)
    .optional()
    .meta({ value: '<id>', description: 'community id (default: the --out directory name)' }),
  preset: z
    .enum(Object.keys(GENERATION_PRESETS) as [keyof typeof GENERATION_PRESETS], {
      error: `expects ${Object.keys(GENERATION_PRESETS).join(' or ')}`,
    })
    .default('laptop')
    .meta({ value: '<name>', description: `parameter set: ${Object.keys(GENERATION_PRESETS).join(' or ')}` }),
  seed: z.coerce
    .number()
    .int()
    .optional()
    .meta({ value: '<s>', description: 'seed of every draw and datagen request (default 0)' }),
  users: whole()
    .optional()
    .meta({ value: '<n>', description: `members (default ${laptop.users})` }),
  seeds: whole()
    .optional()
    .meta({ value: '<n>', description: `seed personas (default ${laptop.seedPersonas})` }),
  seedPersonas: z.string().min(1).optional().meta({
    value: '<file.jsonl>',
    description: 'seed personas, one JSON line each: {"persona": "...", "name"?: "..."} or a string',
  }),
  groups: count()
    .optional()
    .meta({ value: '<n>', description: `groups (default ${laptop.groups})` }),
  privateConversations: count()
    .optional()
    .meta({
      value: '<n>',
      description: `one-to-one chats per user (default ${laptop.privateConversationsPerUser})`,
    }),
  groupConversations: count()
    .optional()
    .meta({
      value: '<n>',
      description: `group chats per user (default ${laptop.groupConversationsPerUser})`,
    }),
  aiConversations: count()
    .optional()
    .meta({
      value: '<n>',
      description: `AI-assistant chats per user (default ${laptop.aiConversationsPerUser})`,
    }),
  blogPosts: count()
    .optional()
    .meta({ value: '<n>', description: `blog posts per user (default ${laptop.blogPostsPerUser})` }),
  purchases: count()
    .optional()
    .meta({ value: '<n>', description: `purchase entries per user (default ${laptop.purchasesPerUser})` }),
  noiseShare: share()
    .optional()
    .meta({
      value: '<r>',
      description: `fraction of mundane conversations that are noise (default ${laptop.conversationNoiseRatio})`,
    }),
  blogNoiseShare: share()
    .optional()
    .meta({
      value: '<r>',
      description: `fraction of blog posts that are noise (default ${laptop.blogNoiseRatio})`,
    }),
  attributeReveal: share()
    .optional()
    .meta({
      value: '<p>',
      description: `chance a non-noise document reveals an attribute (default ${laptop.attributeRevealProbability})`,
    }),
  secrets: secretsField.meta({
    value: '<person,group,ai>',
    description: 'secrets per user of each sharing kind (default 2,1,1)',
  }),
  start: z.string().optional().meta({ value: '<date>', description: 'first day of the timeline (default 2024-01-01)' }),
  end: z.string().optional().meta({ value: '<date>', description: 'last day of the timeline (default 2024-12-31)' }),
  steps: whole()
    .optional()
    .meta({ value: '<n>', description: 'time steps documents are planned in (default 4; paper preset 12)' }),
  docsPerCall: whole()
    .optional()
    .meta({ value: '<n>', description: 'documents asked for per datagen call (default 5)' }),
  maxAttempts: whole()
    .optional()
    .meta({ value: '<n>', description: 'attempts per unit that fails the rule checks (default 3)' }),
  maxParseRetries: count()
    .optional()
    .meta({ value: '<n>', description: 'extra calls when a reply does not parse (default 2)' }),
  concurrency: whole().default(4).meta({ value: '<n>', description: 'datagen calls in flight' }),
});

/** Parsed {@link privacybenchGenerateFlagsSchema}. */
export type PrivacybenchGenerateFlags = z.output<typeof privacybenchGenerateFlagsSchema>;

function defined<T extends Record<string, unknown>>(record: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

/** The generation options of the flags: the preset with each given flag as an override. */
export function generationOptionsFromFlags({
  flags,
  outDir,
  cwd,
}: {
  flags: PrivacybenchGenerateFlags;
  outDir: string;
  cwd: string;
}): GenerationOptions {
  const parameters = defined({
    users: flags.users,
    seedPersonas: flags.seeds,
    groups: flags.groups,
    privateConversationsPerUser: flags.privateConversations,
    groupConversationsPerUser: flags.groupConversations,
    aiConversationsPerUser: flags.aiConversations,
    blogPostsPerUser: flags.blogPosts,
    purchasesPerUser: flags.purchases,
    conversationNoiseRatio: flags.noiseShare,
    blogNoiseRatio: flags.blogNoiseShare,
    attributeRevealProbability: flags.attributeReveal,
    secretsPerUser: flags.secrets,
  });
  const overrides = defined({
    seed: flags.seed,
    timeline:
      flags.start === undefined && flags.end === undefined
        ? undefined
        : { start: flags.start ?? '2024-01-01', end: flags.end ?? '2024-12-31' },
    steps: flags.steps,
    docsPerCall: flags.docsPerCall,
    maxAttempts: flags.maxAttempts,
    maxParseRetries: flags.maxParseRetries,
    seedPersonas: flags.seedPersonas === undefined ? undefined : readSeedPersonas(resolve(cwd, flags.seedPersonas)),
  });
  try {
    return resolveGenerationOptions({
      preset: flags.preset,
      communityId: flags.communityId ?? basename(outDir),
      overrides: { ...overrides, parameters },
    });
  } catch (error) {
    if (error instanceof z.ZodError) {
      const problems = error.issues.map((issue) => `${issue.path.join('.') || 'options'}: ${issue.message}`).join('; ');
      throw new PlanValidationError(`invalid generation options: ${problems}`);
    }
    throw error;
  }
}

/** Reads `--seed-personas`: one persona per line, as a JSON string or `{"persona": …, "name"?: …}`. */
function readSeedPersonas(path: string): SeedPersona[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new DatasetFormatError(`cannot read --seed-personas ${path}: check the path`, { cause: error });
  }
  const personas: SeedPersona[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new DatasetFormatError(
        `${path}:${index + 1}: not valid JSON; give {"persona": "..."} or a JSON string per line`,
      );
    }
    const parsed = seedPersonaSchema.safeParse(typeof value === 'string' ? { persona: value } : value);
    if (!parsed.success) {
      throw new DatasetFormatError(
        `${path}:${index + 1}: expected {"persona": "...", "name"?: "..."}: ${parsed.error.issues[0]?.message ?? ''}`,
      );
    }
    personas.push(parsed.data);
  });
  return personas;
}

/** Progress lines: each unit generated, each rejection with its first problems, one line when resuming. */
function progressPrinter(write: (text: string) => void): (progress: GenerationProgress) => void {
  let resumed = 0;
  return (progress) => {
    if (progress.status === 'resumed') {
      resumed += 1;
      if (resumed === 1) write('resuming: units already in the journal are not asked again\n');
    } else if (progress.status === 'generated') {
      write(`[${progress.phase}] ${progress.unit}${progress.attempt > 1 ? ` (attempt ${progress.attempt})` : ''}\n`);
    } else if (progress.status === 'rejected') {
      const problems = progress.problems ?? [];
      write(
        `[${progress.phase}] ${progress.unit} rejected (attempt ${progress.attempt}): ${problems.slice(0, 3).join('; ')}` +
          `${problems.length > 3 ? ` (+${problems.length - 3} more)` : ''}\n`,
      );
    }
  };
}

/**
 * `confidant generate privacybench`: a PrivacyBench community (people, relationships, groups,
 * secrets, documents), resumable (privacybench.md §2). A unit that keeps failing the rule checks
 * ends it with a `GenerationError`; there is no partial community.
 */
export const privacybenchGenerator = defineGenerator({
  id: 'privacybench',
  description:
    'Generate a PrivacyBench community (people, relationships, groups, secrets, documents) into --out; ' +
    'rerun the same command to resume. The last line of stdout is the community directory.',
  out: 'the community directory to write (or resume)',
  flags: privacybenchGenerateFlagsSchema,
  async run({ flags, model, outDir, cwd, signal, log }) {
    const result = await generateCommunity({
      model,
      options: generationOptionsFromFlags({ flags, outDir, cwd }),
      outDir,
      concurrency: flags.concurrency,
      signal,
      onProgress: progressPrinter(log),
    });
    const { community, documents } = result;
    log(
      `community ${community.communityId}: ${community.users.length} users, ${community.groups.length} groups, ` +
        `${community.secrets.length} secrets, ${documents.length} documents\n`,
    );
    return { status: 'complete', output: result.dir, written: documents.length, rejected: 0 };
  },
});
