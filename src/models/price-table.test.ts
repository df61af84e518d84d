import { describe, expect, it } from 'vitest';
import { createPriceTable, priceOverridesSchema } from './price-table.js';

describe('createPriceTable', () => {
  const table = createPriceTable();

  it('knows list prices, including dated snapshots', () => {
    expect(table.priceOf('openai', 'gpt-4o-mini')).toEqual({ inputPerMillionUsd: 0.15, outputPerMillionUsd: 0.6 });
    expect(table.priceOf('openai', 'gpt-4o-2024-08-06')).toEqual({ inputPerMillionUsd: 2.5, outputPerMillionUsd: 10 });
    expect(table.priceOf('openai', 'responses/gpt-5')).toEqual({ inputPerMillionUsd: 1.25, outputPerMillionUsd: 10 });
    expect(table.priceOf('anthropic', 'claude-sonnet-4-5-20250929')?.inputPerMillionUsd).toBe(3);
    expect(table.priceOf('google', 'gemini-2.5-flash')?.outputPerMillionUsd).toBe(2.5);
  });

  it('charges nothing for local providers and knows nothing else', () => {
    expect(table.priceOf('ollama', 'qwen3:32b')).toEqual({ inputPerMillionUsd: 0, outputPerMillionUsd: 0 });
    expect(table.priceOf('mock', 'echo')).toEqual({ inputPerMillionUsd: 0, outputPerMillionUsd: 0 });
    expect(table.priceOf('openai', 'gpt-4o-mini-tts')).toBeNull();
    expect(table.priceOf('openai-compatible', 'gpt-4o')).toBeNull();
  });

  it('computes cost, and null (never 0) when price or tokens are unknown', () => {
    expect(
      table.costOf({ provider: 'openai', modelId: 'gpt-4o', usage: { inputTokens: 1_000_000, outputTokens: 500_000 } }),
    ).toBe(7.5);
    expect(
      table.costOf({ provider: 'openai', modelId: 'gpt-4o', usage: { inputTokens: 10, outputTokens: null } }),
    ).toBeNull();
    expect(table.costOf({ provider: 'x', modelId: 'y', usage: { inputTokens: 1, outputTokens: 1 } })).toBeNull();
    expect(table.costOf({ provider: 'vllm', modelId: 'y', usage: { inputTokens: null, outputTokens: null } })).toBe(0);
  });

  it('lets overrides win, by provider:model or bare model', () => {
    const custom = createPriceTable({
      overrides: {
        'openai-compatible:my-model': { inputPerMillionUsd: 1, outputPerMillionUsd: 2 },
        'gpt-4o': { inputPerMillionUsd: 9, outputPerMillionUsd: 9 },
        'vllm:paid': { inputPerMillionUsd: 0.5, outputPerMillionUsd: 0.5 },
      },
    });
    expect(custom.priceOf('openai-compatible', 'my-model')?.outputPerMillionUsd).toBe(2);
    expect(custom.priceOf('openai', 'gpt-4o')?.inputPerMillionUsd).toBe(9);
    expect(custom.priceOf('vllm', 'paid')?.inputPerMillionUsd).toBe(0.5);
    expect(custom.priceOf('openai', 'gpt-4o-mini')?.inputPerMillionUsd).toBe(0.15);
  });

  it('validates a user price file', () => {
    expect(priceOverridesSchema.safeParse({ m: { inputPerMillionUsd: 1, outputPerMillionUsd: 1 } }).success).toBe(true);
    expect(priceOverridesSchema.safeParse({ m: { inputPerMillionUsd: -1, outputPerMillionUsd: 1 } }).success).toBe(
      false,
    );
    expect(priceOverridesSchema.safeParse({ m: { input: 1 } }).success).toBe(false);
  });
});
