import { describe, expect, it } from 'vitest';
import type { ModelMiddleware } from '../../spec/chat-model.js';
import { BudgetExceededError } from '../../spec/errors.js';
import { callTraceOf } from '../call-trace.js';
import { MockChatModel } from '../testing/mock-chat-model.js';
import { UsageLedger } from '../usage-ledger.js';
import { wrapChatModel } from '../wrap-chat-model.js';
import { usageMiddleware } from './usage-middleware.js';

const ask = { messages: [{ role: 'user' as const, content: 'q' }], settings: {} };

describe('usageMiddleware', () => {
  it('records usage by role and puts the cost in the trace', async () => {
    const ledger = new UsageLedger();
    const costs: Array<number | null> = [];
    const peek: ModelMiddleware = {
      id: 'peek',
      async wrapGenerate({ request, context, next }) {
        const result = await next(request);
        costs.push(callTraceOf(context).costUsd);
        return result;
      },
    };
    const model = new MockChatModel({
      script: 'x',
      provider: 'openai',
      modelId: 'gpt-4o-mini',
      usage: { inputTokens: 1_000_000, outputTokens: 1_000_000 },
    });
    const wrapped = wrapChatModel({ model, middleware: [peek, usageMiddleware({ ledger })] });
    await wrapped.generate(ask, { role: 'verifier' });
    expect(costs).toEqual([0.75]);
    expect(ledger.byRole().verifier).toMatchObject({ calls: 1, inputTokens: 1_000_000, costUsd: 0.75 });
  });

  it('refuses new calls over budget without calling the model', async () => {
    const ledger = new UsageLedger({ maxTokens: 10 });
    const model = new MockChatModel({ script: 'x', usage: { inputTokens: 8, outputTokens: 4 } });
    const wrapped = wrapChatModel({ model, middleware: [usageMiddleware({ ledger })] });
    await wrapped.generate(ask, { role: 'agent' });
    await expect(wrapped.generate(ask, { role: 'agent' })).rejects.toBeInstanceOf(BudgetExceededError);
    expect(model.calls).toHaveLength(1);
  });

  it('lets calls already in flight finish and count', async () => {
    const ledger = new UsageLedger({ maxTokens: 10 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const model = new MockChatModel({
      script: async () => {
        await gate;
        return 'done';
      },
      usage: { inputTokens: 8, outputTokens: 4 },
    });
    const wrapped = wrapChatModel({ model, middleware: [usageMiddleware({ ledger })] });
    const both = [wrapped.generate(ask, { role: 'agent' }), wrapped.generate(ask, { role: 'agent' })];
    release();
    const results = await Promise.all(both);
    expect(results.map((result) => result.text)).toEqual(['done', 'done']);
    expect(ledger.totals().inputTokens).toBe(16);
    await expect(wrapped.generate(ask, { role: 'agent' })).rejects.toBeInstanceOf(BudgetExceededError);
  });
});
