import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PlanValidationError } from '../spec/errors.js';
import {
  createPriceTable,
  DEFAULT_PRICES,
  missingPriceError,
  normalizePriceKey,
  priceFileSchema,
  priceOverridesSchema,
  unpricedModels,
} from './price-table.js';

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

  it('ships a prices.json that matches its schema, read as it is', () => {
    const file = JSON.parse(readFileSync(new URL('./prices.json', import.meta.url), 'utf8'));
    expect(priceFileSchema.parse(file).prices).toEqual(DEFAULT_PRICES);
  });

  it('reads the built-in list prices from prices.json', () => {
    expect(Object.keys(DEFAULT_PRICES).length).toBeGreaterThan(10);
    expect(DEFAULT_PRICES['openai:gpt-4o-mini']).toEqual({ inputPerMillionUsd: 0.15, outputPerMillionUsd: 0.6 });
  });

  it('matches a price given for a spec with base URLs to that endpoint list only', () => {
    const custom = createPriceTable({
      overrides: {
        'vllm:big@http://h1:8000/v1?x=1': { inputPerMillionUsd: 3, outputPerMillionUsd: 4 },
        'openai-compatible:m': { inputPerMillionUsd: 1, outputPerMillionUsd: 2 },
        'openai-compatible:m@http://h2:9/v1': { inputPerMillionUsd: 5, outputPerMillionUsd: 6 },
      },
    });
    expect(custom.priceOf('vllm', 'big', ['http://h1:8000/v1'])?.inputPerMillionUsd).toBe(3);
    // Another endpoint of a local provider stays free.
    expect(custom.priceOf('vllm', 'big', ['http://h9:8000/v1'])?.inputPerMillionUsd).toBe(0);
    expect(custom.priceOf('openai-compatible', 'm', ['http://h2:9/v1'])?.inputPerMillionUsd).toBe(5);
    expect(custom.priceOf('openai-compatible', 'm', ['http://h3:9/v1'])?.inputPerMillionUsd).toBe(1);
    expect(custom.priceOf('openai-compatible', 'm')?.inputPerMillionUsd).toBe(1);
    expect(
      custom.costOf({
        provider: 'openai-compatible',
        modelId: 'm',
        endpoints: ['http://h2:9/v1'],
        usage: { inputTokens: 1_000_000, outputTokens: 1_000_000 },
      }),
    ).toBe(11);
  });

  it('answers the same on every call (memoised per endpoint list and model)', () => {
    const custom = createPriceTable({
      overrides: { 'openai-compatible:m@http://h2:9/v1': { inputPerMillionUsd: 5, outputPerMillionUsd: 6 } },
    });
    const priced = ['http://h2:9/v1'];
    const other = ['http://h3:9/v1'];
    for (let round = 0; round < 3; round++) {
      expect(custom.priceOf('openai-compatible', 'm', priced)?.inputPerMillionUsd).toBe(5);
      expect(custom.priceOf('openai-compatible', 'm', other)).toBeNull();
      expect(custom.priceOf('openai-compatible', 'm')).toBeNull();
      expect(custom.priceOf('vllm', 'm', priced)?.inputPerMillionUsd).toBe(0);
    }
  });

  it('normalizes price keys: queries are dropped from base URLs', () => {
    expect(normalizePriceKey(' openai:gpt-4o ')).toBe('openai:gpt-4o');
    expect(normalizePriceKey('vllm:m@http://h:1/v1?k=s,http://h2:1/v1')).toBe('vllm:m@http://h:1/v1,http://h2:1/v1');
    expect(normalizePriceKey('gpt-4o')).toBe('gpt-4o');
  });

  it('names every unpriced model and the exact --price flag to add', () => {
    const error = missingPriceError(['openai-compatible:a', 'openai-compatible:b', 'openai-compatible:a']);
    expect(error).toBeInstanceOf(PlanValidationError);
    expect(error.message).toBe(
      '--max-cost needs a price for every model it bounds, and openai-compatible:a, openai-compatible:b have none: ' +
        'add --price openai-compatible:a=<input>/<output> --price openai-compatible:b=<input>/<output> ' +
        '(USD per million input/output tokens), or the same under "prices" in --config',
    );
  });
});

describe('unpricedModels', () => {
  it('lists each model without a price once, matching endpoint prices as a run would', () => {
    const prices = createPriceTable({
      overrides: { 'vllm:x@http://127.0.0.1:8000/v1': { inputPerMillionUsd: 1, outputPerMillionUsd: 1 } },
    });
    expect(
      unpricedModels({
        bindings: [
          { role: 'agent', spec: 'openai-compatible:m@http://h:1/v1' },
          { role: 'judge', spec: 'openai-compatible:m@http://h:2/v1' },
          { role: 'judge', spec: 'openai:gpt-4o' },
          { role: 'prober', spec: 'vllm:x' },
          { role: 'summarizer', spec: 'nowhere:x' },
        ],
        prices,
      }),
    ).toEqual(['openai-compatible:m']);
    // vllm's default endpoint is the one priced above.
    expect(prices.priceOf('vllm', 'x', ['http://127.0.0.1:8000/v1'])?.inputPerMillionUsd).toBe(1);
  });
});
