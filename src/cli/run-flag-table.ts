import type { FlagTable } from './flag-meta.js';
import { parseNonNegativeNumber, parsePositiveInteger, parsePositiveNumber } from './parse-assignments.js';

/** Why `resume` refuses a flag of `run`: it continues a run exactly as its header plans it. */
const DEFINES_RESULTS = 'it defines what the run measures';
const SELECTS_SAMPLES = 'it selects the samples of the run';

/**
 * What every flag of `run`, `resume`, `rescore` and the `generate` commands says about itself
 * (spelling, value name, help, repeatable, how the command line's text is parsed, how it merges
 * with the config, which commands take it), in declaration order and without its zod type: the
 * commands are declared and their help drawn from this table alone, so `--help` loads no zod.
 * `runFlagSchema` gives each key its type, in the same order.
 */
export const runFlagTable = {
  retryErrors: {
    flag: '--retry-errors',
    description: 'also redo samples that errored or had a judge call fail',
    commands: ['resume'],
    inConfig: false,
  },
  model: {
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
  },
  grid: {
    flag: '--grid',
    value: '<role=specs>',
    description:
      'seat model grid, e.g. agent-a=openai:gpt-5.1,anthropic:claude-sonnet-4-5 (repeatable; every combination runs)',
    repeatable: true,
    merge: 'by-role',
    commands: ['run'],
    refuse: { resume: DEFINES_RESULTS },
  },
  modelSetting: {
    flag: '--model-setting',
    value: '<role.key=value>',
    description: 'per-role sampling setting, e.g. agent.temperature=0 (repeatable)',
    help: { generate: 'sampling setting, e.g. datagen.temperature=0.8 (repeatable)' },
    repeatable: true,
    merge: 'by-key',
    commands: ['run', 'generate', 'rescore'],
    refuse: { resume: DEFINES_RESULTS },
  },
  defense: {
    flag: '--defense',
    value: '<id>',
    description: 'defense to apply (repeatable, in order; default vanilla)',
    repeatable: true,
    commands: ['run'],
    refuse: { resume: DEFINES_RESULTS },
  },
  set: {
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
  },
  fidelity: {
    flag: '--fidelity',
    value: '<mode>',
    description:
      "confidant (default) or upstream: score exactly as the suite's upstream code does, quirks included (docs/fidelity.md); --set options still win",
    commands: ['run', 'rescore'],
    refuse: { resume: DEFINES_RESULTS },
  },
  epochs: {
    flag: '--epochs',
    value: '<k>',
    description: 'samples per scenario (default 1)',
    parse: parsePositiveInteger,
    commands: ['run'],
    refuse: { resume: DEFINES_RESULTS },
  },
  limit: {
    flag: '--limit',
    value: '<n>',
    description: 'only the first n scenarios',
    parse: parsePositiveInteger,
    commands: ['run'],
    refuse: { resume: SELECTS_SAMPLES },
  },
  sampleIds: {
    flag: '--sample-ids',
    value: '<ids>',
    description: 'only these sample ids (comma-separated)',
    parse: ({ text }) => text.split(',').map((id) => id.trim()),
    commands: ['run'],
    refuse: { resume: SELECTS_SAMPLES },
  },
  seed: {
    flag: '--seed',
    value: '<s>',
    description: 'run seed (default 0)',
    parse: parseNonNegativeNumber,
    commands: ['run'],
    refuse: { resume: DEFINES_RESULTS },
  },
  shard: {
    flag: '--shard',
    value: '<i/n>',
    description: 'run only shard i of n',
    commands: ['run'],
    refuse: { resume: "it selects the run's samples (each shard is its own run directory)" },
  },
  concurrency: {
    flag: '--concurrency',
    value: '<n>',
    description: 'samples in flight (default 4)',
    help: { resume: "samples in flight (default: the run's)" },
    parse: parsePositiveInteger,
    commands: ['run', 'resume', 'rescore'],
  },
  maxConnections: {
    flag: '--max-connections',
    value: '<n>',
    description: 'concurrent requests per endpoint (default 8)',
    help: { resume: "concurrent requests per endpoint (default: the run's)" },
    parse: parsePositiveInteger,
    commands: ['run', 'resume', 'generate', 'rescore'],
  },
  maxRetries: {
    flag: '--max-retries',
    value: '<n>',
    description: 'retries per model call (default 5)',
    help: { resume: "retries per model call (default: the run's)" },
    parse: parseNonNegativeNumber,
    commands: ['run', 'resume', 'generate', 'rescore'],
  },
  requestTimeout: {
    flag: '--request-timeout',
    value: '<s>',
    description: 'client timeout of one model request, in seconds (default 600)',
    help: { resume: "client timeout of one model request, in seconds (default: the run's)" },
    parse: parsePositiveNumber,
    commands: ['run', 'resume', 'generate'],
  },
  maxRetryAfter: {
    flag: '--max-retry-after',
    value: '<s>',
    description: 'longest Retry-After a retry obeys, in seconds (default 120); longer hints are cut to it',
    help: { resume: "longest Retry-After a retry obeys, in seconds (default: the run's)" },
    parse: parseNonNegativeNumber,
    commands: ['run', 'resume', 'generate'],
  },
  cache: {
    flag: '--no-cache',
    description: 'do not read cached responses (new responses are still cached)',
    help: { resume: 'do not read cached responses' },
    commands: ['run', 'resume', 'generate', 'rescore'],
  },
  cacheDir: {
    flag: '--cache-dir',
    value: '<dir>',
    description: 'response cache directory',
    help: { resume: "response cache directory (default: the run's)" },
    commands: ['run', 'resume', 'generate', 'rescore'],
  },
  maxCost: {
    flag: '--max-cost',
    value: '<usd>',
    description: 'stop cleanly once this many US dollars are spent',
    help: { resume: "budget for this invocation (default: the run's own)" },
    parse: parseNonNegativeNumber,
    commands: ['run', 'resume', 'generate', 'rescore'],
  },
  maxTokens: {
    flag: '--max-tokens',
    value: '<n>',
    description: 'stop cleanly once this many tokens are used',
    help: { resume: "token budget for this invocation (default: the run's own)" },
    parse: parsePositiveInteger,
    commands: ['run', 'resume', 'generate', 'rescore'],
  },
  prices: {
    flag: '--price',
    value: '<model=input/output>',
    description:
      'price of a model in USD per million input/output tokens, e.g. openai:gpt-4o=2.5/10; the model is a spec or provider:model (repeatable)',
    repeatable: true,
    merge: 'by-key',
    commands: ['run', 'resume', 'generate', 'rescore'],
  },
  dataDir: {
    flag: '--data-dir',
    value: '<dir>',
    description: 'dataset directory',
    help: {
      resume: "dataset directory (default: the run's)",
      rescore: "dataset directory (default: the source run's)",
    },
    commands: ['run', 'resume', 'rescore'],
  },
  out: {
    flag: '--out',
    value: '<dir>',
    description: 'where run directories go (default ./runs)',
    help: { rescore: "where the new run directory goes (default: the source run's folder)" },
    commands: ['run', 'rescore'],
    refuse: { resume: 'a run directory does not move: resume writes into the directory it is given' },
  },
  preset: {
    flag: '--preset',
    value: '<id>',
    description: "start from one of the suite's named option sets (see confidant list presets)",
    commands: ['run'],
    refuse: { resume: DEFINES_RESULTS },
  },
  config: {
    flag: '--config',
    value: '<file>',
    description: 'JSON file with any of these flags and suite options (flags on the command line win)',
    commands: ['run'],
    inConfig: false,
    refuse: { resume: "the run's settings are recorded in header.json; give safe overrides as flags" },
  },
  failFast: {
    flag: '--fail-fast',
    value: '<k>',
    description: 'stop once k samples in a row failed with the same provider cause (default 5; 0: never)',
    help: { resume: "stop once k samples in a row failed with the same provider cause (default: the run's)" },
    parse: parseNonNegativeNumber,
    commands: ['run', 'resume', 'rescore'],
  },
  maxErrorRate: {
    flag: '--max-error-rate',
    value: '<r>',
    description:
      'stop once more than this share of samples failed (from 20 on), and exit 4 above it at the end (default 0.2)',
    help: { resume: "the share of failed samples that stops the run or makes it exit 4 (default: the run's)" },
    parse: parseNonNegativeNumber,
    commands: ['run', 'resume', 'rescore'],
  },
  failOnError: {
    flag: '--fail-on-error',
    description: 'exit with code 4 when any sample errored or any judge call failed',
    commands: ['run', 'resume', 'rescore'],
  },
  preflight: {
    flag: '--no-preflight',
    description: 'skip the check that every model endpoint answers before the first sample',
    help: { generate: 'skip the check that the datagen endpoint answers before the first call' },
    commands: ['run', 'resume', 'generate', 'rescore'],
    inConfig: false,
  },
  dryRun: {
    flag: '--dry-run',
    description: 'print the plan (samples, model calls per role, estimated cost) and exit without calling a model',
    commands: ['run'],
    inConfig: false,
  },
} satisfies FlagTable;
