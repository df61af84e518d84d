import { z } from 'zod';

/** List price of a model in USD per one million tokens. */
export const modelPriceSchema = z
  .object({
    inputPerMillionUsd: z.number().nonnegative().describe('USD per 1M input (prompt) tokens'),
    outputPerMillionUsd: z.number().nonnegative().describe('USD per 1M output (completion) tokens'),
  })
  .strict();
export type ModelPrice = z.infer<typeof modelPriceSchema>;

/**
 * User prices by model: keys are a model spec with its base URLs (`vllm:m@http://h:8000/v1`, that
 * endpoint list only), `provider:modelId` (any endpoint) or a bare `modelId` (any provider).
 */
export const priceOverridesSchema = z.record(z.string(), modelPriceSchema);
export type PriceOverrides = z.infer<typeof priceOverridesSchema>;
