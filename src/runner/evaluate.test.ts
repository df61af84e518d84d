import { describe, expect, it } from 'vitest';
import { evaluate } from './evaluate.js';

type EmbeddingEvent = { type: 'embedding-call'; role: string; texts: number; cached: boolean };

describe('evaluate with an embedder given as a suite option', () => {
  it('routes PrivacyBench --set embedder=<spec> through the embedder role: header, events and usage', async () => {
    const { summary, store, header } = await evaluate({
      suite: 'privacybench',
      options: { strategies: 'direct', rounds: 1, judges: 'canary', retriever: 'vector', embedder: 'hashing:16' },
      models: [
        { role: 'agent', spec: 'mock:echo' },
        { role: 'prober', spec: 'mock:echo' },
      ],
      limit: 1,
    });
    expect(summary.counts).toMatchObject({ planned: 1, error: 0 });
    // The plan keeps the option as given (its hash is the run's identity); the role is bound from it.
    expect(header.plan.models.map((binding) => binding.role)).toEqual(['agent', 'prober']);
    expect(header.models.embedder).toEqual([expect.objectContaining({ provider: 'hashing', modelId: '16' })]);
    const [record] = await store.readSamples();
    const events = (record?.events ?? []).filter(
      (event): event is typeof event & EmbeddingEvent => event.type === 'embedding-call',
    );
    // The owner's chunks, then the round's query, each one call of the embedder role.
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(events.every((event) => event.role === 'embedder' && event.cached === false)).toBe(true);
    expect(summary.usage.embedder).toMatchObject({ calls: events.length, cachedCalls: 0 });
    expect((record?.output as { retriever?: unknown } | undefined)?.retriever).toEqual({
      kind: 'vector',
      k: 5,
      embedder: 'hashing-v1:16',
    });
  });
});
