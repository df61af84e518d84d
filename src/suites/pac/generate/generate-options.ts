import { basename, dirname } from 'node:path';
import { z } from 'zod';
import { PAC_POLICY_TYPES, type PacPolicyType } from '../scenario-schema.js';

/**
 * The folder name of a domain, as the paper data names it: commas dropped, runs of spaces
 * replaced by `_` (`Oil, Gas and Consumable Fuels` → `Oil_Gas_and_Consumable_Fuels`). A name
 * that is already a folder name is returned unchanged.
 */
export function pacDomainDirName(name: string): string {
  return name.trim().replace(/,/g, '').replace(/\s+/g, '_');
}

/** The domain as prompts show it: underscores read as spaces. */
export function pacDomainDisplayName(name: string): string {
  return name.trim().replace(/_/g, ' ');
}

/** A folder name that would leave its parent or is not printable. */
function unsafeDomainDir(dir: string): boolean {
  return /[/\\]|^\.+$/.test(dir) || [...dir].some((char) => char.charCodeAt(0) < 32);
}

const positiveInt = (fallback: number, max: number) => z.coerce.number().int().positive().max(max).default(fallback);

/** `both`/`all`, a comma-separated list, or a list of either (a repeated `--policy-type`), as types. */
function policyTypeList(value: unknown): unknown {
  const texts = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(texts)) return value;
  return texts.flatMap((text) => {
    if (text === 'all' || text === 'both') return [...PAC_POLICY_TYPES];
    return typeof text === 'string' ? text.split(',').map((part) => part.trim()) : [text];
  });
}

const policyTypes = z.preprocess(
  policyTypeList,
  z
    .array(z.enum(PAC_POLICY_TYPES, { error: 'expects change, range or both' }))
    .min(1)
    .transform((types) => PAC_POLICY_TYPES.filter((type) => types.includes(type))),
);

/**
 * The flags of `confidant generate pac` (every option but `outDir`, which is the CLI's `--out`).
 */
export const pacGenerateFlagsSchema = z.object({
  domains: z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .refine((name) => !unsafeDomainDir(pacDomainDirName(name)), {
          message: 'a domain name becomes a folder name: no slashes, no control characters, not . or ..',
        }),
    )
    .min(1, 'name at least one domain (--domain "Banks")')
    .meta({
      flag: '--domain',
      value: '<name>',
      description:
        'industry domain, repeatable (a GICS industry name, e.g. "Banks"; folder names such as Air_Freight_and_Logistics work too)',
    }),
  count: positiveInt(1, 1000).describe('scenarios per domain and per policy type'),
  policyTypes: policyTypes
    .default([...PAC_POLICY_TYPES])
    .meta({ flag: '--policy-type', value: '<t>', description: 'constraint types to generate: change, range or both' }),
  seed: z.coerce.number().int().default(0).describe('seed sent with every datagen request'),
  agents: z.coerce.number().int().min(2).max(7).default(2).describe('parties per scenario (the paper uses 2)'),
  requirementCount: positiveInt(5, 20).describe('requirements per goal (the paper uses 5)'),
  batchSize: positiveInt(4, 20).describe('scenarios asked for per stage-1 call'),
  maxAttempts: positiveInt(3, 50).describe('tries per stage (and agent) before a unit is rejected'),
  maxParseRetries: z.coerce
    .number()
    .int()
    .nonnegative()
    .max(9)
    .default(2)
    .describe('extra calls when a reply does not parse'),
  concurrency: positiveInt(4, 64).describe('datagen calls in flight'),
});

/**
 * Options of `confidant generate pac` (pacbench.md §11). `count` scenarios are generated per
 * domain and per policy type: units are `<type>/<Domain>/policy_<k>` for `k < count`.
 * `maxAttempts` bounds the tries of each stage (per agent for memory and constraint) that fail
 * the rule checks; `maxParseRetries` bounds the extra calls when a reply does not parse.
 */
export const pacGenerateOptionsSchema = pacGenerateFlagsSchema
  .extend({
    outDir: z
      .string()
      .min(1)
      .describe('output folder; use <dataDir>/pacbench/scenarios to load with --data-dir <dataDir>'),
  })
  .superRefine((options, context) => {
    const seen = new Map<string, string>();
    options.domains.forEach((name, index) => {
      const dir = pacDomainDirName(name);
      const first = seen.get(dir);
      if (first !== undefined) {
        context.addIssue({
          code: 'custom',
          message: `'${name}' and '${first}' are the same domain folder (${dir})`,
          path: ['domains', index],
        });
      }
      seen.set(dir, name);
    });
  });

/** Parsed {@link pacGenerateOptionsSchema}. */
export type PacGenerateOptions = z.infer<typeof pacGenerateOptionsSchema>;
/** What callers may pass to {@link pacGenerateOptionsSchema} (defaults filled in). */
export type PacGenerateOptionsInput = z.input<typeof pacGenerateOptionsSchema>;

/** One scenario to generate: `<type>/<Domain>/policy_<k>`. */
export type PacGenerationUnit = {
  /** `change/Banks/policy_0`: the scenario id the suite gives the file, and the journal key. */
  id: string;
  policyType: PacPolicyType;
  /** Folder name. */
  domain: string;
  /** Name shown in prompts. */
  domainName: string;
  policy: number;
  /** Path of the file relative to `outDir`. */
  file: string;
};

/** Every unit of a generation, in a stable order: policy type, then domain as given, then `k`. */
export function pacGenerationUnits(
  options: Pick<PacGenerateOptions, 'domains' | 'count' | 'policyTypes'>,
): PacGenerationUnit[] {
  const units: PacGenerationUnit[] = [];
  for (const policyType of options.policyTypes) {
    for (const name of options.domains) {
      const domain = pacDomainDirName(name);
      for (let policy = 0; policy < options.count; policy += 1) {
        units.push({
          id: `${policyType}/${domain}/policy_${policy}`,
          policyType,
          domain,
          domainName: pacDomainDisplayName(name),
          policy,
          file: `${policyType}/${domain}/policy_${policy}.json`,
        });
      }
    }
  }
  return units;
}

/**
 * The `--data-dir` under which the suite finds the generated files: `outDir` minus its trailing
 * `pacbench/scenarios`, or `null` when `outDir` is not laid out that way (the suite reads
 * `<dataDir>/pacbench/scenarios/{change,range}/<Domain>/policy_<k>.json`).
 */
export function pacGeneratedDataDir(outDir: string): string | null {
  const trimmed = outDir.replace(/[/\\]+$/, '');
  if (basename(trimmed) !== 'scenarios' || basename(dirname(trimmed)) !== 'pacbench') return null;
  return dirname(dirname(trimmed));
}

/** Help text of `confidant generate pac` for the CLI. */
export const PAC_GENERATE_USAGE = `confidant generate pac --domain <name> [--domain <name> …] --count <n> --model datagen=<provider:model> --out <dir>

Generates PAC-Bench scenarios in four stages (scenario, requirements, memory, constraint) with
structured output; every stage is checked by rules (exactly 5 requirements, at least one memory per
agent shaped as a small data table, one single-sentence policy per agent without conjunctions, violation
keywords specific and verbatim in the memories they reference, …) and only the failing stage of the
failing agent is regenerated, up to --max-attempts times; a unit that still fails is reported as
rejected with its reasons.

  --domain <name>         industry domain (repeatable), e.g. "Banks" or "Oil, Gas and Consumable Fuels"
  --count <n>             scenarios per domain and per policy type (default 1)
  --policy-type <t>       change, range or both (default both)
  --model datagen=<spec>  the datagen model (generator=<spec> also works)
  --out <dir>             output folder: files go to <dir>/<change|range>/<Domain>/policy_<k>.json
  --seed <n>              seed sent with every request (default 0)
  --agents <n>            parties per scenario, 2-7 (default 2)
  --max-attempts <n>      tries per stage and agent before a unit is rejected (default 3)
  --max-parse-retries <n> extra calls when a reply does not parse (default 2)
  --batch-size <n>        scenarios per stage-1 call (default 4)
  --concurrency <n>       datagen calls in flight (default 4)

Use --out <dataDir>/pacbench/scenarios, then run the suite with --data-dir <dataDir> --split change|range|all.
Rerun the same command to resume: finished stages and scenarios are kept in <out>/.generate/.
Exits non-zero when no scenario could be generated.`;
