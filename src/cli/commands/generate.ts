import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { GENERATION_DIR } from '../../generation/index.js';
import { BudgetExceededError, DatasetFormatError, PlanValidationError, ProviderError } from '../../spec/errors.js';
import {
  GENERATION_PRESETS,
  type GenerationOptions,
  type GenerationProgress,
  generateCommunity,
  resolveGenerationOptions,
  type SeedPersona,
  seedPersonaSchema,
} from '../../suites/privacybench/generate/index.js';
import { EXIT } from '../cli-io.js';
import {
  addDatagenOptions,
  type DatagenFlags,
  datagenCallLog,
  datagenFlagsOf,
  resolveDatagenModels,
} from '../datagen-models.js';
import { parseNonNegativeNumber, parsePositiveInteger } from '../parse-assignments.js';
import type { CommandContext } from '../program.js';
import { registerGeneratePac } from './generate-pac.js';

type GenerateFlags = {
  out?: string;
  communityId?: string;
  preset?: string;
  seed?: string;
  users?: string;
  seeds?: string;
  seedPersonas?: string;
  groups?: string;
  privateConversations?: string;
  groupConversations?: string;
  aiConversations?: string;
  blogPosts?: string;
  purchases?: string;
  noiseShare?: string;
  blogNoiseShare?: string;
  attributeReveal?: string;
  secrets?: string;
  start?: string;
  end?: string;
  steps?: string;
  docsPerCall?: string;
  maxAttempts?: string;
  maxParseRetries?: string;
  concurrency?: string;
};

/**
 * `confidant generate <dataset>`: dataset generation pipelines driven by the `datagen` role.
 * Each dataset is one subcommand registered here (`generate privacybench`; `generate pac` joins
 * the same way).
 */
export function registerGenerate({ program, context }: { program: Command; context: CommandContext }): void {
  const generate = program.command('generate').description('Generate datasets with a datagen model.');
  registerGeneratePrivacyBench({ generate, context });
  registerGeneratePac({ generate, context });
}

/** `confidant generate privacybench`: a PrivacyBench community, resumable (privacybench.md §2). */
export function registerGeneratePrivacyBench({
  generate,
  context,
}: {
  generate: Command;
  context: CommandContext;
}): void {
  const laptop = GENERATION_PRESETS.laptop.parameters;
  addDatagenOptions(generate.command('privacybench'))
    .description(
      'Generate a PrivacyBench community (people, relationships, groups, secrets, documents) into --out; ' +
        'rerun the same command to resume. The last line of stdout is the community directory.',
    )
    .option('--out <dir>', 'community directory to write (required; holds the resume journal in .generate/)')
    .option('--community-id <id>', 'community id (default: the --out directory name)')
    .option('--preset <name>', `parameter set: ${Object.keys(GENERATION_PRESETS).join(' or ')} (default laptop)`)
    .option('--seed <s>', 'seed of every draw and datagen request (default 0)')
    .option('--users <n>', `members (default ${laptop.users})`)
    .option('--seeds <n>', `seed personas (default ${laptop.seedPersonas})`)
    .option(
      '--seed-personas <file.jsonl>',
      'seed personas, one JSON line each: {"persona": "...", "name"?: "..."} or a string',
    )
    .option('--groups <n>', `groups (default ${laptop.groups})`)
    .option('--private-conversations <n>', `one-to-one chats per user (default ${laptop.privateConversationsPerUser})`)
    .option('--group-conversations <n>', `group chats per user (default ${laptop.groupConversationsPerUser})`)
    .option('--ai-conversations <n>', `AI-assistant chats per user (default ${laptop.aiConversationsPerUser})`)
    .option('--blog-posts <n>', `blog posts per user (default ${laptop.blogPostsPerUser})`)
    .option('--purchases <n>', `purchase entries per user (default ${laptop.purchasesPerUser})`)
    .option(
      '--noise-share <r>',
      `fraction of mundane conversations that are noise (default ${laptop.conversationNoiseRatio})`,
    )
    .option('--blog-noise-share <r>', `fraction of blog posts that are noise (default ${laptop.blogNoiseRatio})`)
    .option(
      '--attribute-reveal <p>',
      `chance a non-noise document reveals an attribute (default ${laptop.attributeRevealProbability})`,
    )
    .option('--secrets <person,group,ai>', 'secrets per user of each sharing kind (default 2,1,1)')
    .option('--start <date>', 'first day of the timeline (default 2024-01-01)')
    .option('--end <date>', 'last day of the timeline (default 2024-12-31)')
    .option('--steps <n>', 'time steps documents are planned in (default 4; paper preset 12)')
    .option('--docs-per-call <n>', 'documents asked for per datagen call (default 5)')
    .option('--max-attempts <n>', 'attempts per unit that fails the rule checks (default 3)')
    .option('--max-parse-retries <n>', 'extra calls when a reply does not parse (default 2)')
    .option('--concurrency <n>', 'datagen calls in flight (default 4)')
    .action(async (flags: GenerateFlags, self: Command) => {
      context.outcome.exitCode = await runGeneratePrivacyBench({ flags, modelFlags: datagenFlagsOf(self), context });
    });
}

async function runGeneratePrivacyBench({
  flags,
  modelFlags,
  context,
}: {
  flags: GenerateFlags;
  modelFlags: DatagenFlags;
  context: CommandContext;
}): Promise<number> {
  const { io } = context;
  if (flags.out === undefined) {
    throw new PlanValidationError(
      'generate privacybench needs --out <dir>: the community directory to write (or resume)',
    );
  }
  const outDir = resolve(io.cwd, flags.out);
  const options = buildOptions({ flags, outDir, cwd: io.cwd });
  const integer = (text: string | undefined, flag: string) =>
    text === undefined ? undefined : parsePositiveInteger({ text, flag });
  const models = await resolveDatagenModels({ io, flags: modelFlags, command: 'generate privacybench' });
  try {
    const model = models
      .factory({
        sampleId: 'generate:privacybench',
        epoch: 0,
        emit: datagenCallLog(join(outDir, GENERATION_DIR)),
        signal: io.signal,
      })
      .model('datagen');
    const result = await generateCommunity({
      model,
      options,
      outDir,
      concurrency: integer(flags.concurrency, '--concurrency') ?? 4,
      signal: io.signal,
      onProgress: progressPrinter(io.stderr),
    });
    const usage = models.ledger.totals();
    io.stderr(
      `community ${result.community.communityId}: ${result.community.users.length} users, ${result.community.groups.length} groups, ` +
        `${result.community.secrets.length} secrets, ${result.documents.length} documents\n` +
        `datagen: ${usage.calls} calls (${usage.cachedCalls} cached), ${usage.inputTokens} input / ${usage.outputTokens} output tokens, ` +
        `cost ${usage.costUsd === null ? 'unknown' : `$${usage.costUsd.toFixed(4)}`}\n`,
    );
    io.stdout(`${result.dir}\n`);
    return EXIT.ok;
  } catch (error) {
    const resume = `finished units are kept in ${join(outDir, GENERATION_DIR)}; run the same command again to continue`;
    if (io.signal.aborted || isStop(error)) {
      const why =
        error instanceof BudgetExceededError
          ? 'the budget (--max-cost / --max-tokens) was reached'
          : 'it was interrupted';
      io.stderr(`generation stopped early because ${why}; ${resume}\n`);
      return EXIT.stoppedEarly;
    }
    if (error instanceof ProviderError) {
      io.stderr(`confidant: a datagen call failed: ${error.message}; ${resume}\n`);
      return EXIT.internal;
    }
    throw error;
  } finally {
    models.close();
  }
}

function isStop(error: unknown): boolean {
  const name = error instanceof Error ? error.name : '';
  return name === 'BudgetExceededError' || name === 'RunInterruptedError' || name === 'AbortError';
}

function buildOptions({
  flags,
  outDir,
  cwd,
}: {
  flags: GenerateFlags;
  outDir: string;
  cwd: string;
}): GenerationOptions {
  const preset = flags.preset ?? 'laptop';
  if (!(preset in GENERATION_PRESETS)) {
    throw new PlanValidationError(`unknown --preset '${preset}': use ${Object.keys(GENERATION_PRESETS).join(' or ')}`);
  }
  const count = (text: string | undefined, flag: string) =>
    text === undefined ? undefined : parseNonNegativeNumber({ text, flag });
  const positive = (text: string | undefined, flag: string) =>
    text === undefined ? undefined : parsePositiveInteger({ text, flag });
  const seedText = flags.seed;
  const seed = seedText === undefined ? undefined : Number(seedText);
  if (seed !== undefined && !Number.isInteger(seed))
    throw new PlanValidationError(`--seed expects a whole number, got '${seedText}'`);
  const parameters = defined({
    users: positive(flags.users, '--users'),
    seedPersonas: positive(flags.seeds, '--seeds'),
    groups: count(flags.groups, '--groups'),
    privateConversationsPerUser: count(flags.privateConversations, '--private-conversations'),
    groupConversationsPerUser: count(flags.groupConversations, '--group-conversations'),
    aiConversationsPerUser: count(flags.aiConversations, '--ai-conversations'),
    blogPostsPerUser: count(flags.blogPosts, '--blog-posts'),
    purchasesPerUser: count(flags.purchases, '--purchases'),
    conversationNoiseRatio: count(flags.noiseShare, '--noise-share'),
    blogNoiseRatio: count(flags.blogNoiseShare, '--blog-noise-share'),
    attributeRevealProbability: count(flags.attributeReveal, '--attribute-reveal'),
    secretsPerUser: flags.secrets === undefined ? undefined : parseSecrets(flags.secrets),
  });
  const overrides = defined({
    seed,
    timeline:
      flags.start === undefined && flags.end === undefined
        ? undefined
        : { start: flags.start ?? '2024-01-01', end: flags.end ?? '2024-12-31' },
    steps: positive(flags.steps, '--steps'),
    docsPerCall: positive(flags.docsPerCall, '--docs-per-call'),
    maxAttempts: positive(flags.maxAttempts, '--max-attempts'),
    maxParseRetries: count(flags.maxParseRetries, '--max-parse-retries'),
    seedPersonas: flags.seedPersonas === undefined ? undefined : readSeedPersonas(resolve(cwd, flags.seedPersonas)),
  });
  try {
    return resolveGenerationOptions({
      preset: preset as keyof typeof GENERATION_PRESETS,
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

function defined<T extends Record<string, unknown>>(record: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

function parseSecrets(text: string): { person: number; group: number; ai: number } {
  const parts = text.split(',').map((part) => Number(part.trim()));
  if (parts.length !== 3 || parts.some((part) => !Number.isFinite(part) || part < 0)) {
    throw new PlanValidationError(
      `--secrets expects three non-negative numbers person,group,ai (e.g. 2,1,1), got '${text}'`,
    );
  }
  const [person = 0, group = 0, ai = 0] = parts;
  return { person, group, ai };
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
