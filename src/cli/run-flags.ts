import { z } from 'zod';
import { parseShard } from '../runner/shard.js';
import { FIDELITY_MODES } from '../spec/fidelity.js';
import { modelPriceSchema, type PriceOverrides } from '../spec/model-price.js';
import { expandGrid } from './expand-grid.js';
import { type FlagValues, flag } from './flag-schema.js';
import {
  parseAssignment,
  parseModelSettingAssignments,
  parseNonNegativeNumber,
  parsePositiveInteger,
  parsePositiveNumber,
} from './parse-assignments.js';
import { parsePriceAssignment, parsePricePair } from './parse-price.js';

/** A config value that is one string or a list of them, as a list. */
const stringList = () =>
  z
    .union([z.string(), z.array(z.string())], { error: 'expected a string or a list of strings' })
    .transform((value) => [value].flat());

const positiveInteger = () => z.number().int().positive();

/** Why `resume` refuses a flag of `run`: it continues a run exactly as its header plans it. */
const DEFINES_RESULTS = 'it defines what the run measures';
const SELECTS_SAMPLES = 'it selects the samples of the run';

/** `--set key=value` flags, or the config's `set` object: suite options by key. */
const suiteOptionsField = z.union(
  [
    z.record(z.string(), z.unknown()),
    stringList().transform((texts) =>
      Object.fromEntries(
        texts.map((text) => {
          const { key, value } = parseAssignment({ text, flag: '--set' });
          return [key, value];
        }),
      ),
    ),
  ],
  { error: 'expected an object of suite options, or key=value texts' },
);

/** `model=input/output` texts (the `--price` flags, or a list in a config) as a price record. */
function priceAssignments(value: unknown): unknown {
  const texts = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(texts) || !texts.every((text) => typeof text === 'string')) return value;
  return Object.fromEntries(
    texts.map((text) => {
      const { model, price } = parsePriceAssignment({ text, flag: '--price' });
      return [model, price];
    }),
  );
}

/**
 * `--price` flags (`model=input/output`), or the config's `prices`: an object of `model:
 * "in/out"` or of prices, or a list of `model=in/out` texts.
 */
const pricesField = z
  .preprocess(
    priceAssignments,
    z.record(
      z.string(),
      z.union([z.string(), modelPriceSchema], {
        error: 'expected "<input>/<output>" or { "inputPerMillionUsd": …, "outputPerMillionUsd": … }',
      }),
      {
        error:
          'expected an object of model: "<input>/<output>" (USD per million tokens), or <model>=<input>/<output> texts',
      },
    ),
  )
  .transform(
    (prices): PriceOverrides =>
      Object.fromEntries(
        Object.entries(prices).map(([model, price]) => [
          model,
          typeof price === 'string' ? parsePricePair({ text: price, model, where: `prices.${model}` }) : price,
        ]),
      ),
  );

/**
 * Every flag of `run`, `resume` and the `generate` commands, declared once: its key (the
 * commander attribute and the `--config` key), its zod type (the value as a config file gives
 * it, normalised) and its {@link FlagMeta} (spelling, value name, help, repeatable, how the
 * command line's text is parsed, how it merges with the config, which commands take it).
 * Commander options, `--config` validation and the typed values `buildPlan` reads all come
 * from here. Suite flags (`--tier`, …) are the suites' own and are added beside these.
 */
export const runFlagSchema = z.object({
  retryErrors: flag(z.boolean(), {
    flag: '--retry-errors',
    description: 'also redo samples that errored or had a judge call fail',
    commands: ['resume'],
    inConfig: false,
  }),
  model: flag(stringList(), {
    flag: '--model',
    short: '-m',
    value: '<spec>',
    description: 'model under test, or role=spec (repeatable; repeat judge= for an ensemble)',
    help: {
      generate: 'datagen model: datagen=<provider:model> (generator= or a bare spec also work)',
      resume:
        'move a role to a new base URL: the same provider and model id, e.g. judge=vllm:X@http://newhost:8000/v1 (repeatable)',
      rescore:
        "a new scoring model, judge=<provider:model> (repeatable for an ensemble; replaces the source run's judges)",
    },
    valueFor: { resume: '<role=spec>', rescore: '<role=spec>' },
    repeatable: true,
    merge: 'by-role',
    commands: ['run', 'resume', 'generate', 'rescore'],
  }),
  grid: flag(
    stringList().transform((texts) => texts.flatMap(expandGrid)),
    {
      flag: '--grid',
      value: '<role=specs>',
      description:
        'seat model grid, e.g. agent-a=openai:gpt-5.1,anthropic:claude-sonnet-4-5 (repeatable; every combination runs)',
      repeatable: true,
      merge: 'by-role',
      commands: ['run'],
      refuse: { resume: DEFINES_RESULTS },
    },
  ),
  modelSetting: flag(stringList().transform(parseModelSettingAssignments), {
    flag: '--model-setting',
    value: '<role.key=value>',
    description: 'per-role sampling setting, e.g. agent.temperature=0 (repeatable)',
    help: { generate: 'sampling setting, e.g. datagen.temperature=0.8 (repeatable)' },
    repeatable: true,
    merge: 'by-key',
    commands: ['run', 'generate', 'rescore'],
    refuse: { resume: DEFINES_RESULTS },
  }),
  defense: flag(stringList(), {
    flag: '--defense',
    value: '<id>',
    description: 'defense to apply (repeatable, in order; default vanilla)',
    repeatable: true,
    commands: ['run'],
    refuse: { resume: DEFINES_RESULTS },
  }),
  set: flag(suiteOptionsField, {
    flag: '--set',
    value: '<key=value>',
    description: 'suite option (repeatable)',
    help: {
      rescore:
        "suite option over the source run's, e.g. a judge setting (repeatable; options that change the samples are refused)",
    },
    repeatable: true,
    merge: 'by-key',
    commands: ['run', 'rescore'],
    refuse: { resume: DEFINES_RESULTS },
  }),
  fidelity: flag(z.enum(FIDELITY_MODES), {
    flag: '--fidelity',
    value: '<mode>',
    description:
      "confidant (default) or upstream: score exactly as the suite's upstream code does, quirks included (docs/fidelity.md); --set options still win",
    commands: ['run', 'rescore'],
    refuse: { resume: DEFINES_RESULTS },
  }),
  epochs: flag(positiveInteger(), {
    flag: '--epochs',
    value: '<k>',
    description: 'samples per scenario (default 1)',
    parse: parsePositiveInteger,
    commands: ['run'],
    refuse: { resume: DEFINES_RESULTS },
  }),
  limit: flag(positiveInteger(), {
    flag: '--limit',
    value: '<n>',
    description: 'only the first n scenarios',
    parse: parsePositiveInteger,
    commands: ['run'],
    refuse: { resume: SELECTS_SAMPLES },
  }),
  sampleIds: flag(stringList(), {
    flag: '--sample-ids',
    value: '<ids>',
    description: 'only these sample ids (comma-separated)',
    parse: ({ text }) => text.split(',').map((id) => id.trim()),
    commands: ['run'],
    refuse: { resume: SELECTS_SAMPLES },
  }),
  seed: flag(z.number().int(), {
    flag: '--seed',
    value: '<s>',
    description: 'run seed (default 0)',
    parse: parseNonNegativeNumber,
    commands: ['run'],
    refuse: { resume: DEFINES_RESULTS },
  }),
  shard: flag(z.string().transform(parseShard), {
    flag: '--shard',
    value: '<i/n>',
    description: 'run only shard i of n',
    commands: ['run'],
    refuse: { resume: "it selects the run's samples (each shard is its own run directory)" },
  }),
  concurrency: flag(positiveInteger(), {
    flag: '--concurrency',
    value: '<n>',
    description: 'samples in flight (default 4)',
    help: { resume: "samples in flight (default: the run's)" },
    parse: parsePositiveInteger,
    commands: ['run', 'resume', 'rescore'],
  }),
  maxConnections: flag(positiveInteger(), {
    flag: '--max-connections',
    value: '<n>',
    description: 'concurrent requests per endpoint (default 8)',
    help: { resume: "concurrent requests per endpoint (default: the run's)" },
    parse: parsePositiveInteger,
    commands: ['run', 'resume', 'generate', 'rescore'],
  }),
  maxRetries: flag(z.number().int().nonnegative(), {
    flag: '--max-retries',
    value: '<n>',
    description: 'retries per model call (default 5)',
    help: { resume: "retries per model call (default: the run's)" },
    parse: parseNonNegativeNumber,
    commands: ['run', 'resume', 'generate', 'rescore'],
  }),
  requestTimeout: flag(z.number().positive().max(86_400), {
    flag: '--request-timeout',
    value: '<s>',
    description: 'client timeout of one model request, in seconds (default 600)',
    help: { resume: "client timeout of one model request, in seconds (default: the run's)" },
    parse: parsePositiveNumber,
    commands: ['run', 'resume', 'generate'],
  }),
  maxRetryAfter: flag(z.number().nonnegative().max(86_400), {
    flag: '--max-retry-after',
    value: '<s>',
    description: 'longest Retry-After a retry obeys, in seconds (default 120); longer hints are cut to it',
    help: { resume: "longest Retry-After a retry obeys, in seconds (default: the run's)" },
    parse: parseNonNegativeNumber,
    commands: ['run', 'resume', 'generate'],
  }),
  cache: flag(z.boolean(), {
    flag: '--no-cache',
    description: 'do not read cached responses (new responses are still cached)',
    help: { resume: 'do not read cached responses' },
    commands: ['run', 'resume', 'generate', 'rescore'],
  }),
  cacheDir: flag(z.string(), {
    flag: '--cache-dir',
    value: '<dir>',
    description: 'response cache directory',
    help: { resume: "response cache directory (default: the run's)" },
    commands: ['run', 'resume', 'generate', 'rescore'],
  }),
  maxCost: flag(z.number().nonnegative(), {
    flag: '--max-cost',
    value: '<usd>',
    description: 'stop cleanly once this many US dollars are spent',
    help: { resume: "budget for this invocation (default: the run's own)" },
    parse: parseNonNegativeNumber,
    commands: ['run', 'resume', 'generate', 'rescore'],
  }),
  maxTokens: flag(positiveInteger(), {
    flag: '--max-tokens',
    value: '<n>',
    description: 'stop cleanly once this many tokens are used',
    help: { resume: "token budget for this invocation (default: the run's own)" },
    parse: parsePositiveInteger,
    commands: ['run', 'resume', 'generate', 'rescore'],
  }),
  prices: flag(pricesField, {
    flag: '--price',
    value: '<model=input/output>',
    description:
      'price of a model in USD per million input/output tokens, e.g. openai:gpt-4o=2.5/10; the model is a spec or provider:model (repeatable)',
    repeatable: true,
    merge: 'by-key',
    commands: ['run', 'resume', 'generate', 'rescore'],
  }),
  dataDir: flag(z.string(), {
    flag: '--data-dir',
    value: '<dir>',
    description: 'dataset directory',
    help: {
      resume: "dataset directory (default: the run's)",
      rescore: "dataset directory (default: the source run's)",
    },
    commands: ['run', 'resume', 'rescore'],
  }),
  out: flag(z.string(), {
    flag: '--out',
    value: '<dir>',
    description: 'where run directories go (default ./runs)',
    help: { rescore: "where the new run directory goes (default: the source run's folder)" },
    commands: ['run', 'rescore'],
    refuse: { resume: 'a run directory does not move: resume writes into the directory it is given' },
  }),
  preset: flag(z.string(), {
    flag: '--preset',
    value: '<id>',
    description: "start from one of the suite's named option sets (see confidant list presets)",
    commands: ['run'],
    refuse: { resume: DEFINES_RESULTS },
  }),
  config: flag(z.string(), {
    flag: '--config',
    value: '<file>',
    description: 'JSON file with any of these flags and suite options (flags on the command line win)',
    commands: ['run'],
    inConfig: false,
    refuse: { resume: "the run's settings are recorded in header.json; give safe overrides as flags" },
  }),
  failFast: flag(z.number().int().nonnegative(), {
    flag: '--fail-fast',
    value: '<k>',
    description: 'stop once k samples in a row failed with the same provider cause (default 5; 0: never)',
    help: { resume: "stop once k samples in a row failed with the same provider cause (default: the run's)" },
    parse: parseNonNegativeNumber,
    commands: ['run', 'resume', 'rescore'],
  }),
  maxErrorRate: flag(z.number().min(0).max(1), {
    flag: '--max-error-rate',
    value: '<r>',
    description:
      'stop once more than this share of samples failed (from 20 on), and exit 4 above it at the end (default 0.2)',
    help: { resume: "the share of failed samples that stops the run or makes it exit 4 (default: the run's)" },
    parse: parseNonNegativeNumber,
    commands: ['run', 'resume', 'rescore'],
  }),
  failOnError: flag(z.boolean(), {
    flag: '--fail-on-error',
    description: 'exit with code 4 when any sample errored or any judge call failed',
    commands: ['run', 'resume', 'rescore'],
  }),
  preflight: flag(z.boolean(), {
    flag: '--no-preflight',
    description: 'skip the check that every model endpoint answers before the first sample',
    help: { generate: 'skip the check that the datagen endpoint answers before the first call' },
    commands: ['run', 'resume', 'generate', 'rescore'],
    inConfig: false,
  }),
  dryRun: flag(z.boolean(), {
    flag: '--dry-run',
    description: 'print the plan (samples, model calls per role, estimated cost) and exit without calling a model',
    commands: ['run'],
    inConfig: false,
  }),
});

/** The flag values of a run, resume or generate command (command line and config merged). */
export type RunFlagValues = FlagValues<typeof runFlagSchema>;
