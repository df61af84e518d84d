import { describe, expect, it } from 'vitest';
import { evaluate, sessionOf } from './evaluate.js';

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
      limit: 2,
    });
    expect(summary.counts).toMatchObject({ planned: 2, error: 0 });
    // The plan keeps the option as given (its hash is the run's identity); the role is bound from it.
    expect(header.plan.models.map((binding) => binding.role)).toEqual(['agent', 'prober']);
    expect(header.models.embedder).toEqual([expect.objectContaining({ provider: 'hashing', modelId: '16' })]);
    const records = await store.readSamples();
    const eventsOf = (record: (typeof records)[number]) =>
      record.events.filter((event): event is typeof event & EmbeddingEvent => event.type === 'embedding-call');
    const all = records.flatMap(eventsOf);
    expect(all.every((event) => event.role === 'embedder' && event.cached === false)).toBe(true);
    expect(summary.usage.embedder).toMatchObject({ calls: all.length, cachedCalls: 0 });
    // Both samples share one owner's index (built by whichever came first), and each records its own queries.
    for (const record of records) expect(eventsOf(record).some((event) => event.texts === 1)).toBe(true);
    expect(all.filter((event) => event.texts > 1).length).toBeGreaterThan(0);
    for (const record of records) {
      expect((record.output as { retriever?: unknown } | undefined)?.retriever).toEqual({
        kind: 'vector',
        k: 5,
        embedder: 'hashing-v1:16',
      });
    }
  });
});

describe('sessionOf', () => {
  it('keeps every session option evaluate() was given (the shared limiters included) and drops undefined ones', () => {
    const limiters = new Map();
    const signal = new AbortController().signal;
    const session = sessionOf({ limiters, signal, lockCommand: 'confidant sweep run', env: undefined });
    expect(session).toEqual({ limiters, signal, lockCommand: 'confidant sweep run' });
    expect(session.limiters).toBe(limiters);
    expect('env' in session).toBe(false);
  });
});
