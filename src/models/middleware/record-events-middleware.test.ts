import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EmitEvent } from '../../spec/chat-model.js';
import type { EmbeddingModel } from '../../spec/embedding-model.js';
import { ProviderError } from '../../spec/errors.js';
import { type TranscriptEvent, type TranscriptEventInput, transcriptEventSchema } from '../../spec/event.js';
import { createPriceTable } from '../price-table.js';
import { ResponseCache } from '../response-cache.js';
import { MockChatModel } from '../testing/mock-chat-model.js';
import { UsageLedger } from '../usage-ledger.js';
import { wrapChatModel } from '../wrap-chat-model.js';
import { wrapEmbeddingModel } from '../wrap-embedding-model.js';
import { cacheMiddleware } from './cache-middleware.js';
import { recordEventsMiddleware } from './record-events-middleware.js';
import { retryMiddleware } from './retry-middleware.js';
import { usageMiddleware } from './usage-middleware.js';

function collector() {
  const events: TranscriptEventInput[] = [];
  const emit: EmitEvent = (event) => {
    events.push(event);
    return { ...event, id: `e${events.length}`, time: '2025-01-01T00:00:00.000Z' } as TranscriptEvent;
  };
  return { events, emit };
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function clock(step: number) {
  let time = 0;
  return () => {
    const current = time;
    time += step;
    return current;
  };
}

const request = {
  messages: [{ role: 'user' as const, content: 'hello' }],
  tools: [{ name: 'send', description: 'send mail', inputSchema: { type: 'object' } }],
  settings: { temperature: 0 },
  sampleOrdinal: 2,
};

describe('recordEventsMiddleware', () => {
  it('emits one model-call event per logical call, with attempts from retries', async () => {
    const { events, emit } = collector();
    const model = new MockChatModel({
      script: [new ProviderError('503', { kind: 'transient', status: 503 }), 'hi there'],
      usage: { inputTokens: 5, outputTokens: 2 },
    });
    const wrapped = wrapChatModel({
      model,
      middleware: [recordEventsMiddleware({ now: clock(40) }), retryMiddleware({ sleep: async () => {} })],
    });
    const result = await wrapped.generate(request, { role: 'judge', emit, participantId: 'judge-1' });
    expect(result.providerMetadata).toEqual({ confidant: { modelCallEventId: 'e1' } });
    expect(events).toEqual([
      {
        type: 'model-call',
        role: 'judge',
        participantId: 'judge-1',
        provider: 'mock',
        modelId: 'scripted',
        request: {
          messages: [{ role: 'user', content: 'hello' }],
          tools: [{ name: 'send', description: 'send mail' }],
          settings: { temperature: 0 },
          sampleOrdinal: 2,
        },
        response: { text: 'hi there', toolCalls: [], finishReason: 'stop' },
        usage: { inputTokens: 5, outputTokens: 2 },
        costUsd: null,
        cached: false,
        attempts: 2,
        durationMs: 40,
      },
    ]);
  });

  it('records a failure with a null response and rethrows it', async () => {
    const { events, emit } = collector();
    const failure = new ProviderError('HTTP 400: bad request', { kind: 'deterministic', status: 400 });
    const wrapped = wrapChatModel({
      model: new MockChatModel({ script: failure }),
      middleware: [recordEventsMiddleware({ now: clock(1) })],
    });
    await expect(wrapped.generate({ messages: [], settings: {} }, { role: 'agent', emit })).rejects.toBe(failure);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'model-call',
      response: null,
      usage: { inputTokens: null, outputTokens: null },
      // Nothing was billed: a failed call costs 0, so a run's cost is not "unknown" because of it.
      costUsd: 0,
      attempts: 1,
      cached: false,
      error: { name: 'ProviderError', message: 'HTTP 400: bad request' },
    });
  });

  it('emits nothing without an emitter', async () => {
    const wrapped = wrapChatModel({
      model: new MockChatModel({ script: 'x' }),
      middleware: [recordEventsMiddleware()],
    });
    expect((await wrapped.generate({ messages: [], settings: {} }, { role: 'agent' })).text).toBe('x');
  });

  it('emits one embedding-call event per embedding call: counts, usage, cost and cache hits', async () => {
    const { events, emit } = collector();
    const calls: string[][] = [];
    const model: EmbeddingModel = {
      specificationVersion: 'confidant-1',
      provider: 'test',
      modelId: 'emb',
      id: 'test:emb',
      dimension: 2,
      doEmbed: async ({ texts }) => {
        calls.push(texts);
        return { embeddings: texts.map((text) => Float32Array.from([text.length, 1])), usage: { inputTokens: 7 } };
      },
    };
    // $2 per million input tokens: 7 tokens cost $0.000014.
    const prices = createPriceTable({ overrides: { 'test:emb': { inputPerMillionUsd: 2, outputPerMillionUsd: 0 } } });
    const ledger = new UsageLedger({ prices });
    const directory = mkdtempSync(join(tmpdir(), 'confidant-record-embed-'));
    dirs.push(directory);
    const cache = ResponseCache.open({ directory });
    const wrapped = wrapEmbeddingModel({
      model,
      middleware: [
        recordEventsMiddleware({ now: clock(3) }),
        cacheMiddleware({ cache, reads: true, endpointSet: [], onHit: (hit) => ledger.recordCachedCall(hit.role) }),
        usageMiddleware({ ledger }),
      ],
    });
    const context = { role: 'embedder', emit, participantId: 'assistant' };
    const texts = ['abc', 'hello'];
    expect((await wrapped.embed({ texts }, context)).embeddings).toEqual([
      Float32Array.from([3, 1]),
      Float32Array.from([5, 1]),
    ]);
    expect((await wrapped.embed({ texts }, context)).embeddings).toHaveLength(2);
    expect(calls).toEqual([['abc', 'hello']]);
    const first = {
      type: 'embedding-call',
      role: 'embedder',
      participantId: 'assistant',
      provider: 'test',
      modelId: 'emb',
      embedderId: 'test:emb',
      dimension: 2,
      texts: 2,
      characters: 8,
      usage: { inputTokens: 7 },
      costUsd: 0.000014,
      cached: false,
      attempts: 1,
      durationMs: 3,
    };
    // The second call is a cache hit: no adapter call, no cost, counted as a cached call.
    expect(events).toEqual([first, { ...first, costUsd: 0, cached: true, attempts: 0 }]);
    expect(ledger.byRole().embedder).toMatchObject({ calls: 1, cachedCalls: 1, inputTokens: 7, outputTokens: 0 });
    cache.close();
    expect(transcriptEventSchema.parse({ ...first, id: 'e1', time: 't' })).toEqual({ ...first, id: 'e1', time: 't' });
  });

  it('records a failed embedding call with its error and rethrows it', async () => {
    const { events, emit } = collector();
    const failure = new ProviderError('HTTP 400: bad input', { kind: 'deterministic', status: 400 });
    const wrapped = wrapEmbeddingModel({
      model: {
        specificationVersion: 'confidant-1',
        provider: 'test',
        modelId: 'emb',
        id: 'test:emb',
        dimension: 2,
        doEmbed: () => Promise.reject(failure),
      },
      middleware: [recordEventsMiddleware({ now: clock(1) })],
    });
    await expect(wrapped.embed({ texts: ['x'] }, { role: 'embedder', emit })).rejects.toBe(failure);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'embedding-call',
        texts: 1,
        usage: { inputTokens: null },
        costUsd: 0,
        attempts: 1,
        error: { name: 'ProviderError', message: 'HTTP 400: bad input' },
      }),
    ]);
  });
});
