import { PlanValidationError } from '../spec/errors.js';
import type { SampleSpec, Suite } from '../suites/suite.js';
import { sha256Hex } from './plan-hash.js';

/**
 * A sample id: `<scenarioId>[~<k=v,…>]#e<epoch>`, variant keys sorted so the id does not
 * depend on how a suite ordered them. Example: `clinic~question=direct#e2`.
 */
export function sampleId({
  scenarioId,
  variant,
  epoch,
}: {
  scenarioId: string;
  variant: Record<string, string>;
  epoch: number;
}): string {
  const pairs = Object.keys(variant)
    .sort()
    .map((key) => `${key}=${variant[key]}`);
  return `${scenarioId}${pairs.length > 0 ? `~${pairs.join(',')}` : ''}#e${epoch}`;
}

/** A deterministic per-sample seed: the first 31 bits of SHA-256 of `<run seed>:<sample id>`. */
export function sampleSeed({ seed, id }: { seed: number; id: string }): number {
  return Number.parseInt(sha256Hex(`${seed}:${id}`).slice(0, 8), 16) & 0x7fffffff;
}

/** The most samples one plan may hold (scenarios × variants × epochs); larger plans are refused up front. */
export const MAX_PLAN_SAMPLES = 1_000_000;

/**
 * Expands scenarios into the samples of a plan: scenario × variant × epoch (epochs 1-based), in
 * that nesting order, with stable human-readable ids and deterministic seeds.
 *
 * - `limit` keeps the first N scenarios (not samples), so every variant and epoch of them runs.
 * - `sampleIds` keeps only those ids, in expansion order; an unknown id is a `PlanValidationError`
 *   that lists a few valid ones.
 * - Duplicate scenario ids (or any other id collision) are a `PlanValidationError`.
 * - A plan of more than `MAX_PLAN_SAMPLES` samples is a `PlanValidationError` with its computed
 *   size, raised before any sample is built (so `--epochs 1e9` neither runs out of memory nor hangs).
 */
export function expandSamples({
  suite,
  scenarios,
  options,
  epochs,
  seed,
  limit,
  sampleIds,
}: {
  suite: Suite;
  scenarios: unknown[];
  options: unknown;
  epochs: number;
  seed: number;
  limit?: number;
  sampleIds?: string[];
}): SampleSpec[] {
  if (!Number.isInteger(epochs) || epochs < 1)
    throw new PlanValidationError(`epochs must be a positive integer, got ${epochs}`);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new PlanValidationError(`limit must be a positive integer, got ${limit}`);
  }
  const chosen = limit === undefined ? scenarios : scenarios.slice(0, limit);
  const expanded = chosen.map((scenario) => ({
    scenario,
    variants: suite.dataset.variants ? suite.dataset.variants({ scenario, options }) : [{}],
  }));
  const variantCount = expanded.reduce((sum, entry) => sum + entry.variants.length, 0);
  const size = variantCount * epochs;
  if (size > MAX_PLAN_SAMPLES) {
    throw new PlanValidationError(
      `this plan has ${size.toLocaleString('en-US')} samples (${chosen.length.toLocaleString('en-US')} scenarios, ` +
        `${variantCount.toLocaleString('en-US')} with their variants, × ${epochs.toLocaleString('en-US')} epochs), ` +
        `more than the ${MAX_PLAN_SAMPLES.toLocaleString('en-US')} a run may hold; lower --epochs or --limit`,
    );
  }
  const samples: SampleSpec[] = [];
  const seen = new Set<string>();
  for (const { scenario, variants } of expanded) {
    const scenarioId = suite.dataset.id(scenario);
    for (const variant of variants) {
      // One copy of the variant for all its epochs: a 100-epoch plan holds one object, not 100.
      const shared = { ...variant };
      for (let epoch = 1; epoch <= epochs; epoch += 1) {
        const id = sampleId({ scenarioId, variant, epoch });
        if (seen.has(id)) {
          throw new PlanValidationError(
            `suite '${suite.id}' produced the sample id '${id}' twice; scenario ids and variants must be unique`,
          );
        }
        seen.add(id);
        samples.push({ id, scenarioId, variant: shared, epoch, seed: sampleSeed({ seed, id }) });
      }
    }
  }
  if (sampleIds === undefined) return samples;

  const unknown = sampleIds.filter((id) => !seen.has(id));
  if (unknown.length > 0) {
    const examples = samples.slice(0, 5).map((sample) => sample.id);
    throw new PlanValidationError(
      `unknown sample id${unknown.length > 1 ? 's' : ''} ${unknown.map((id) => `'${id}'`).join(', ')} for suite '${suite.id}'` +
        (examples.length > 0 ? `; valid ids look like: ${examples.join(', ')}` : '; this plan has no samples') +
        (samples.length > examples.length ? ` (${samples.length} in total)` : ''),
    );
  }
  const wanted = new Set(sampleIds);
  return samples.filter((sample) => wanted.has(sample.id));
}
