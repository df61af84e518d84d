import { z } from 'zod';
import type { TokenUsage } from '../spec/chat-model.js';

/** List price of a model in USD per one million tokens. */
export const modelPriceSchema = z
  .object({
    inputPerMillionUsd: z.number().nonnegative().describe('USD per 1M input (prompt) tokens'),
    outputPerMillionUsd: z.number().nonnegative().describe('USD per 1M output (completion) tokens'),
  })
  .strict();
export type ModelPrice = z.infer<typeof modelPriceSchema>;

/**
 * A user price file: keys are `provider:modelId` or a bare `modelId` (any provider).
 * Validate user JSON with this before passing it as `overrides`.
 */
export const priceOverridesSchema = z.record(z.string(), modelPriceSchema);
export type PriceOverrides = z.infer<typeof priceOverridesSchema>;

const price = (inputPerMillionUsd: number, outputPerMillionUsd: number): ModelPrice => ({
  inputPerMillionUsd,
  outputPerMillionUsd,
});

/**
 * Published list prices (standard tier, no caching or batch discounts) for a few well-known
 * models, as known when this table was written. Prices change: users override them.
 */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  'openai:gpt-4o': price(2.5, 10),
  'openai:gpt-4o-mini': price(0.15, 0.6),
  'openai:gpt-4.1': price(2, 8),
  'openai:gpt-4.1-mini': price(0.4, 1.6),
  'openai:gpt-4.1-nano': price(0.1, 0.4),
  'openai:gpt-5': price(1.25, 10),
  'openai:gpt-5.1': price(1.25, 10),
  'openai:gpt-5-mini': price(0.25, 2),
  'openai:gpt-5-nano': price(0.05, 0.4),
  'anthropic:claude-sonnet-4-5': price(3, 15),
  'anthropic:claude-sonnet-4-0': price(3, 15),
  'anthropic:claude-sonnet-4': price(3, 15),
  'anthropic:claude-3-7-sonnet': price(3, 15),
  'anthropic:claude-haiku-4-5': price(1, 5),
  'anthropic:claude-3-5-haiku': price(0.8, 4),
  'google:gemini-2.5-flash': price(0.3, 2.5),
  'google:gemini-2.5-flash-lite': price(0.1, 0.4),
  'google:gemini-2.5-pro': price(1.25, 10),
  'google:gemini-2.0-flash': price(0.1, 0.4),
};

/** Providers that run on the user's own hardware (or are scripted): they cost nothing. */
export const FREE_PROVIDERS: readonly string[] = ['ollama', 'vllm', 'llamacpp', 'mock'];

/** Looks up prices and turns token usage into USD. */
export type PriceTable = {
  priceOf(provider: string, modelId: string): ModelPrice | null;
  /** USD for one call; `null` when the price or a needed token count is unknown (never 0 for unknown). */
  costOf(options: { provider: string; modelId: string; usage: TokenUsage }): number | null;
};

/** `gpt-4o-2024-08-06` → `gpt-4o`, `claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`, `responses/x` → `x`. */
function baseModelId(modelId: string): string {
  return modelId
    .replace(/^responses\//, '')
    .replace(/^models\//, '')
    .replace(/-(\d{4}-\d{2}-\d{2}|\d{8})$/, '')
    .replace(/-latest$/, '');
}

/**
 * The price table: user `overrides` first (by `provider:modelId`, then bare `modelId`), then
 * free local providers, then `DEFAULT_PRICES` (also matching dated snapshots of a model).
 */
export function createPriceTable(options: { overrides?: PriceOverrides } = {}): PriceTable {
  const overrides = options.overrides ?? {};
  function priceOf(provider: string, modelId: string): ModelPrice | null {
    const base = baseModelId(modelId);
    const override =
      overrides[`${provider}:${modelId}`] ?? overrides[modelId] ?? overrides[`${provider}:${base}`] ?? overrides[base];
    if (override) return override;
    if (FREE_PROVIDERS.includes(provider)) return price(0, 0);
    return DEFAULT_PRICES[`${provider}:${modelId}`] ?? DEFAULT_PRICES[`${provider}:${base}`] ?? null;
  }
  return {
    priceOf,
    costOf({ provider, modelId, usage }) {
      const known = priceOf(provider, modelId);
      if (!known) return null;
      const input = known.inputPerMillionUsd === 0 ? 0 : usage.inputTokens;
      const output = known.outputPerMillionUsd === 0 ? 0 : usage.outputTokens;
      if (input === null || output === null) return null;
      return (input * known.inputPerMillionUsd + output * known.outputPerMillionUsd) / 1_000_000;
    },
  };
}
