import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../spec/event.js';
import { addUsage, sumUsageByRole, totalCost, usageFromEvents } from './aggregate-usage.js';

function call({
  role,
  inputTokens,
  outputTokens,
  costUsd,
  cached = false,
}: {
  role: string;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  cached?: boolean;
}): TranscriptEvent {
  return {
    id: 'e1',
    time: '2025-01-01T00:00:00.000Z',
    type: 'model-call',
    role,
    provider: 'mock',
    modelId: 'm',
    request: { messages: [], settings: {} },
    response: { text: '', toolCalls: [], finishReason: 'stop' },
    usage: { inputTokens, outputTokens },
    costUsd,
    cached,
    attempts: 1,
    durationMs: 0,
  };
}

describe('usageFromEvents', () => {
  it('sums model calls per role: null tokens add 0, one unknown cost makes the role cost null', () => {
    const events: TranscriptEvent[] = [
      { id: 'e0', time: '2025-01-01T00:00:00.000Z', type: 'sample-start', sampleId: 's1' },
      call({ role: 'agent', inputTokens: 10, outputTokens: 4, costUsd: 0.25 }),
      call({ role: 'agent', inputTokens: null, outputTokens: 6, costUsd: 0.5, cached: true }),
      call({ role: 'judge', inputTokens: 3, outputTokens: null, costUsd: 0.125 }),
      call({ role: 'judge', inputTokens: 1, outputTokens: 1, costUsd: null }),
    ];
    expect(usageFromEvents(events)).toEqual({
      agent: { calls: 2, inputTokens: 10, outputTokens: 10, costUsd: 0.75, cachedCalls: 1 },
      judge: { calls: 2, inputTokens: 4, outputTokens: 1, costUsd: null, cachedCalls: 0 },
    });
  });

  it('counts embedding calls under their role (input tokens only), but not replayed ones', () => {
    const embedding = (fields: { inputTokens: number | null; costUsd: number; cached: boolean }): TranscriptEvent => ({
      id: 'e2',
      time: '2025-01-01T00:00:00.000Z',
      type: 'embedding-call',
      role: 'embedder',
      provider: 'openai',
      modelId: 'text-embedding-3-small',
      embedderId: 'openai:text-embedding-3-small',
      dimension: 1536,
      texts: 4,
      characters: 120,
      usage: { inputTokens: fields.inputTokens },
      costUsd: fields.costUsd,
      cached: fields.cached,
      attempts: fields.cached ? 0 : 1,
      durationMs: 5,
    });
    const events: TranscriptEvent[] = [
      embedding({ inputTokens: 30, costUsd: 0.0006, cached: false }),
      embedding({ inputTokens: null, costUsd: 0, cached: true }),
      { ...embedding({ inputTokens: 99, costUsd: 1, cached: false }), replayedFrom: 'run-0' },
      call({ role: 'agent', inputTokens: 10, outputTokens: 4, costUsd: 0.25 }),
    ];
    expect(usageFromEvents(events)).toEqual({
      embedder: { calls: 2, inputTokens: 30, outputTokens: 0, costUsd: 0.0006, cachedCalls: 1 },
      agent: { calls: 1, inputTokens: 10, outputTokens: 4, costUsd: 0.25, cachedCalls: 0 },
    });
  });
});

describe('usage sums', () => {
  const known = { calls: 1, inputTokens: 2, outputTokens: 3, costUsd: 0.5, cachedCalls: 1 };
  it('adds usages and totals cost, keeping null sticky', () => {
    expect(addUsage(known, known)).toEqual({ calls: 2, inputTokens: 4, outputTokens: 6, costUsd: 1, cachedCalls: 2 });
    expect(addUsage(known, { ...known, costUsd: null }).costUsd).toBeNull();
    expect(sumUsageByRole([{ agent: known }, { agent: known, judge: known }])).toEqual({
      agent: { calls: 2, inputTokens: 4, outputTokens: 6, costUsd: 1, cachedCalls: 2 },
      judge: known,
    });
    expect(totalCost({ agent: known, judge: known })).toBe(1);
    expect(totalCost({ agent: known, judge: { ...known, costUsd: null } })).toBeNull();
    expect(totalCost({})).toBe(0);
  });
});
