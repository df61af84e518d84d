import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { TokenUsage } from '../spec/chat-model.js';
import { PlanValidationError } from '../spec/errors.js';
import { type ModelPrice, modelPriceSchema, type PriceOverrides } from '../spec/model-price.js';
import type { RoleBinding } from '../spec/model-spec.js';
import { parseModelSpec, redactEndpoint } from './parse-model-spec.js';
import { findProvider, type ProviderDefinition } from './provider-registry.js';

export { type ModelPrice, modelPriceSchema, type PriceOverrides, priceOverridesSchema } from '../spec/model-price.js';

/** The shape of `prices.json`: the built-in list prices, by `provider:modelId`. */
export const priceFileSchema = z
  .object({ description: z.string(), prices: z.record(z.string(), modelPriceSchema) })
  .strict();

/**
 * Published list prices (standard tier, no caching or batch discounts) for a few well-known
 * models, read from `prices.json` beside this file. Prices change: users override them
 * (`--price`, the `prices` key of `--config`). The file ships with the package and a test checks
 * it against {@link priceFileSchema}, so it is not checked again at every start-up (a first zod
 * parse compiles the schema: ~10 ms of a run's start-up).
 */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = (
  JSON.parse(readFileSync(new URL('./prices.json', import.meta.url), 'utf8')) as z.output<typeof priceFileSchema>
).prices;

/** Providers that run on the user's own hardware (or are scripted): they cost nothing. */
export const FREE_PROVIDERS: readonly string[] = ['ollama', 'vllm', 'llamacpp', 'mock', 'hashing', 'transformers'];

/** Which model a price is asked for: provider, model id and (redacted) endpoints it calls. */
export type PricedModel = { provider: string; modelId: string; endpoints?: readonly string[] };

/** Looks up prices and turns token usage into USD. */
export type PriceTable = {
  priceOf(provider: string, modelId: string, endpoints?: readonly string[]): ModelPrice | null;
  /** USD for one call; `null` when the price or a needed token count is unknown (never 0 for unknown). */
  costOf(options: PricedModel & { usage: TokenUsage }): number | null;
};

const price = (inputPerMillionUsd: number, outputPerMillionUsd: number): ModelPrice => ({
  inputPerMillionUsd,
  outputPerMillionUsd,
});

/** `gpt-4o-2024-08-06` → `gpt-4o`, `claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`, `responses/x` → `x`. */
function baseModelId(modelId: string): string {
  return modelId
    .replace(/^responses\//, '')
    .replace(/^models\//, '')
    .replace(/-(\d{4}-\d{2}-\d{2}|\d{8})$/, '')
    .replace(/-latest$/, '');
}

const endpointKey = (provider: string, modelId: string, endpoints: readonly string[]) =>
  `${provider}:${modelId}@${endpoints.join(',')}`;

/**
 * The lookup key of a user price key: a spec with base URLs becomes `provider:modelId@<redacted
 * URLs>` (so credentials or a query string in the key do not matter), `provider:modelId` and a bare
 * model id stay as they are. A key that does not parse as a spec is kept verbatim (it matches nothing
 * unless it is a bare id).
 */
export function normalizePriceKey(key: string): string {
  const text = key.trim();
  if (!text.includes(':')) return text;
  try {
    const spec = parseModelSpec(text);
    return spec.baseURLs.length === 0
      ? `${spec.provider}:${spec.modelId}`
      : endpointKey(spec.provider, spec.modelId, spec.baseURLs.map(redactEndpoint));
  } catch {
    return text;
  }
}

/**
 * The price table. A model's price is, in this order: a user price for its exact spec with
 * endpoints (`provider:modelId@url,…`), for `provider:modelId`, for its bare `modelId` (then the
 * same two for its undated base id, e.g. `gpt-4o` for `gpt-4o-2024-08-06`); else 0 for the free
 * local providers; else the built-in list price (`prices.json`, also matching dated snapshots).
 */
export function createPriceTable(options: { overrides?: PriceOverrides } = {}): PriceTable {
  const overrides = new Map(
    Object.entries(options.overrides ?? {}).map(([key, value]) => [normalizePriceKey(key), value]),
  );
  // The table never changes, and a run prices the same few models on every call: memoised per
  // endpoint list (by identity, a model's list is one array) and `provider:modelId`.
  const noEndpoints: readonly string[] = [];
  const memo = new WeakMap<readonly string[], Map<string, ModelPrice | null>>();
  function priceOf(provider: string, modelId: string, endpoints: readonly string[] = noEndpoints): ModelPrice | null {
    let prices = memo.get(endpoints);
    if (prices === undefined) {
      prices = new Map();
      memo.set(endpoints, prices);
    }
    const key = `${provider}:${modelId}`;
    let known = prices.get(key);
    if (known === undefined) {
      known = lookUp(provider, modelId, endpoints);
      prices.set(key, known);
    }
    return known;
  }
  function lookUp(provider: string, modelId: string, endpoints: readonly string[]): ModelPrice | null {
    const base = baseModelId(modelId);
    const override =
      (endpoints.length > 0 ? overrides.get(endpointKey(provider, modelId, endpoints)) : undefined) ??
      overrides.get(`${provider}:${modelId}`) ??
      overrides.get(modelId) ??
      overrides.get(`${provider}:${base}`) ??
      overrides.get(base);
    if (override) return override;
    if (FREE_PROVIDERS.includes(provider)) return price(0, 0);
    return DEFAULT_PRICES[`${provider}:${modelId}`] ?? DEFAULT_PRICES[`${provider}:${base}`] ?? null;
  }
  return {
    priceOf,
    costOf({ provider, modelId, endpoints, usage }) {
      const known = priceOf(provider, modelId, endpoints);
      if (!known) return null;
      const input = known.inputPerMillionUsd === 0 ? 0 : usage.inputTokens;
      const output = known.outputPerMillionUsd === 0 ? 0 : usage.outputTokens;
      if (input === null || output === null) return null;
      return (input * known.inputPerMillionUsd + output * known.outputPerMillionUsd) / 1_000_000;
    },
  };
}

/**
 * The error of a cost budget over models without a price: it names each model and the exact
 * `--price` flag that gives it one, so `--max-cost` is never a dead end. `models` are
 * `provider:modelId` ids.
 */
export function missingPriceError(models: readonly string[]): PlanValidationError {
  const unique = [...new Set(models)];
  const flags = unique.map((model) => `--price ${model}=<input>/<output>`).join(' ');
  return new PlanValidationError(
    `--max-cost needs a price for every model it bounds, and ${unique.join(', ')} ${unique.length === 1 ? 'has' : 'have'} none: ` +
      `add ${flags} (USD per million input/output tokens), or the same under "prices" in --config`,
  );
}

/**
 * The price of a model spec as a run finds it: for its base URLs, else its provider's default
 * one (redacted), so a price given for an endpoint list matches as it will when the model is
 * called. `undefined` when the provider is unknown (model resolution reports that).
 */
export function priceOfSpec({
  spec,
  prices,
  registry,
}: {
  spec: string;
  prices: PriceTable;
  registry?: readonly ProviderDefinition[];
}): ModelPrice | null | undefined {
  const parsed = parseModelSpec(spec);
  const provider = findProvider(parsed.provider, registry);
  if (provider === undefined) return undefined;
  const fallback = provider.defaultBaseURL;
  const urls = parsed.baseURLs.length > 0 ? parsed.baseURLs : fallback === undefined ? [] : [fallback];
  return prices.priceOf(parsed.provider, parsed.modelId, urls.map(redactEndpoint));
}

/**
 * The models among `bindings` that `prices` has no price for, as `provider:modelId` (each once,
 * in binding order; specs of unknown providers are left to model resolution to report).
 */
export function unpricedModels({
  bindings,
  prices,
  registry,
}: {
  bindings: readonly RoleBinding[];
  prices: PriceTable;
  registry?: readonly ProviderDefinition[];
}): string[] {
  const missing = new Set<string>();
  for (const binding of bindings) {
    if (priceOfSpec({ spec: binding.spec, prices, ...(registry ? { registry } : {}) }) === null) {
      const { provider, modelId } = parseModelSpec(binding.spec);
      missing.add(`${provider}:${modelId}`);
    }
  }
  return [...missing];
}

/**
 * Refuses a cost budget (`maxCostUsd`) over models without a price: a `PlanValidationError` naming
 * each unpriced model and the `--price` flag to add (see {@link missingPriceError}). Does nothing
 * without a budget.
 */
export function checkBudgetPrices({
  bindings,
  prices,
  maxCostUsd,
  registry,
}: {
  bindings: readonly RoleBinding[];
  prices?: PriceOverrides | undefined;
  maxCostUsd: number | undefined;
  registry?: readonly ProviderDefinition[];
}): void {
  if (maxCostUsd === undefined) return;
  const table = createPriceTable(prices === undefined ? {} : { overrides: prices });
  const unpriced = unpricedModels({ bindings, prices: table, ...(registry ? { registry } : {}) });
  if (unpriced.length > 0) throw missingPriceError(unpriced);
}
