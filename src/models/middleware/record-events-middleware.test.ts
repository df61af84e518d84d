import { describe, expect, it } from 'vitest';
import type { EmitEvent } from '../../spec/chat-model.js';
import { ProviderError } from '../../spec/errors.js';
import type { TranscriptEvent, TranscriptEventInput } from '../../spec/event.js';
import { MockChatModel } from '../testing/mock-chat-model.js';
import { wrapChatModel } from '../wrap-chat-model.js';
import { recordEventsMiddleware } from './record-events-middleware.js';
import { retryMiddleware } from './retry-middleware.js';

function collector() {
  const events: TranscriptEventInput[] = [];
  const emit: EmitEvent = (event) => {
    events.push(event);
    return { ...event, id: `e${events.length}`, time: '2025-01-01T00:00:00.000Z' } as TranscriptEvent;
  };
  return { events, emit };
}

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
});
