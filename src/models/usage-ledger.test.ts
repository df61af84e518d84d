import { describe, expect, it } from 'vitest';
import { BudgetExceededError } from '../spec/errors.js';
import { UsageLedger } from './usage-ledger.js';

describe('UsageLedger', () => {
  it('accumulates calls, tokens and cost by role', () => {
    const ledger = new UsageLedger();
    expect(
      ledger.recordCall({
        role: 'agent',
        provider: 'openai',
        modelId: 'gpt-4o',
        usage: { inputTokens: 1000, outputTokens: 100 },
      }),
    ).toEqual({ costUsd: 0.0035 });
    ledger.recordCall({
      role: 'agent',
      provider: 'openai',
      modelId: 'gpt-4o',
      usage: { inputTokens: 1000, outputTokens: 100 },
    });
    ledger.recordCachedCall('agent');
    ledger.recordCall({ role: 'judge', provider: 'ollama', modelId: 'q', usage: { inputTokens: 7, outputTokens: 3 } });
    const byRole = ledger.byRole();
    expect(byRole.agent).toEqual({
      calls: 2,
      cachedCalls: 1,
      inputTokens: 2000,
      outputTokens: 200,
      costUsd: 0.007,
      unpricedCalls: 0,
      unreportedUsageCalls: 0,
    });
    expect(byRole.judge?.costUsd).toBe(0);
    expect(ledger.totals()).toMatchObject({
      calls: 3,
      cachedCalls: 1,
      inputTokens: 2007,
      outputTokens: 203,
      costUsd: 0.007,
    });
  });

  it('reports null cost (not 0) once any price is unknown', () => {
    const ledger = new UsageLedger();
    ledger.recordCall({
      role: 'agent',
      provider: 'openai',
      modelId: 'gpt-4o',
      usage: { inputTokens: 10, outputTokens: 10 },
    });
    expect(
      ledger.recordCall({
        role: 'agent',
        provider: 'openai-compatible',
        modelId: 'x',
        usage: { inputTokens: 1, outputTokens: 1 },
      }),
    ).toEqual({ costUsd: null });
    ledger.recordCall({
      role: 'agent',
      provider: 'openai',
      modelId: 'gpt-4o',
      usage: { inputTokens: null, outputTokens: null },
    });
    expect(ledger.byRole().agent).toMatchObject({ costUsd: null, unpricedCalls: 2, unreportedUsageCalls: 1, calls: 3 });
    expect(ledger.totals().costUsd).toBeNull();
  });

  it('stops new calls once the cost budget is reached', () => {
    const ledger = new UsageLedger({ maxCostUsd: 0.01 });
    ledger.assertWithinBudget();
    ledger.recordCall({
      role: 'agent',
      provider: 'openai',
      modelId: 'gpt-4o',
      usage: { inputTokens: 2000, outputTokens: 400 },
    });
    ledger.assertWithinBudget();
    ledger.recordCall({
      role: 'agent',
      provider: 'openai',
      modelId: 'gpt-4o',
      usage: { inputTokens: 2000, outputTokens: 400 },
    });
    expect(() => ledger.assertWithinBudget()).toThrow(BudgetExceededError);
    expect(() => ledger.assertWithinBudget()).toThrow(/cost budget of \$0.01 is reached/);
  });

  it('stops new calls once the token budget is reached, ignoring cached calls', () => {
    const ledger = new UsageLedger({ maxTokens: 100 });
    ledger.recordCall({ role: 'agent', provider: 'mock', modelId: 'm', usage: { inputTokens: 60, outputTokens: 39 } });
    ledger.recordCachedCall('agent');
    ledger.assertWithinBudget();
    ledger.recordCall({ role: 'agent', provider: 'mock', modelId: 'm', usage: { inputTokens: 1, outputTokens: 0 } });
    expect(() => ledger.assertWithinBudget()).toThrow(/token budget of 100 is reached \(100 used\)/);
  });
});
