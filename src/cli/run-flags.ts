import { z } from 'zod';
import { parseShard } from '../runner/shard.js';
import { FIDELITY_MODES } from '../spec/fidelity.js';
import { modelPriceSchema, type PriceOverrides } from '../spec/model-price.js';
import { expandGrid } from './expand-grid.js';
import { type FlagValues, flag } from './flag-schema.js';
import { parseAssignment, parseModelSettingAssignments } from './parse-assignments.js';
import { parsePriceAssignment, parsePricePair } from './parse-price.js';
import { runFlagTable } from './run-flag-table.js';

/** A config value that is one string or a list of them, as a list. */
const stringList = () =>
  z
    .union([z.string(), z.array(z.string())], { error: 'expected a string or a list of strings' })
    .transform((value) => [value].flat());

const positiveInteger = () => z.number().int().positive();

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
  retryErrors: flag(z.boolean(), runFlagTable.retryErrors),
  model: flag(stringList(), runFlagTable.model),
  grid: flag(
    stringList().transform((texts) => texts.flatMap(expandGrid)),
    runFlagTable.grid,
  ),
  modelSetting: flag(stringList().transform(parseModelSettingAssignments), runFlagTable.modelSetting),
  defense: flag(stringList(), runFlagTable.defense),
  set: flag(suiteOptionsField, runFlagTable.set),
  fidelity: flag(z.enum(FIDELITY_MODES), runFlagTable.fidelity),
  epochs: flag(positiveInteger(), runFlagTable.epochs),
  limit: flag(positiveInteger(), runFlagTable.limit),
  sampleIds: flag(stringList(), runFlagTable.sampleIds),
  seed: flag(z.number().int(), runFlagTable.seed),
  shard: flag(z.string().transform(parseShard), runFlagTable.shard),
  concurrency: flag(positiveInteger(), runFlagTable.concurrency),
  maxConnections: flag(positiveInteger(), runFlagTable.maxConnections),
  maxRetries: flag(z.number().int().nonnegative(), runFlagTable.maxRetries),
  requestTimeout: flag(z.number().positive().max(86_400), runFlagTable.requestTimeout),
  maxRetryAfter: flag(z.number().nonnegative().max(86_400), runFlagTable.maxRetryAfter),
  cache: flag(z.boolean(), runFlagTable.cache),
  cacheDir: flag(z.string(), runFlagTable.cacheDir),
  maxCost: flag(z.number().nonnegative(), runFlagTable.maxCost),
  maxTokens: flag(positiveInteger(), runFlagTable.maxTokens),
  prices: flag(pricesField, runFlagTable.prices),
  dataDir: flag(z.string(), runFlagTable.dataDir),
  out: flag(z.string(), runFlagTable.out),
  preset: flag(z.string(), runFlagTable.preset),
  config: flag(z.string(), runFlagTable.config),
  failFast: flag(z.number().int().nonnegative(), runFlagTable.failFast),
  maxErrorRate: flag(z.number().min(0).max(1), runFlagTable.maxErrorRate),
  failOnError: flag(z.boolean(), runFlagTable.failOnError),
  preflight: flag(z.boolean(), runFlagTable.preflight),
  dryRun: flag(z.boolean(), runFlagTable.dryRun),
});

/** The flag values of a run, resume or generate command (command line and config merged). */
export type RunFlagValues = FlagValues<typeof runFlagSchema>;
