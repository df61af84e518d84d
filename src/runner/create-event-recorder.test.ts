import { describe, expect, it } from 'vitest';
import { createEventRecorder } from './create-event-recorder.js';

describe('createEventRecorder', () => {
  it('numbers events e1, e2… with the injected clock and returns the stored event', () => {
    let tick = 0;
    const { emit, events } = createEventRecorder({ now: () => new Date(Date.UTC(2025, 0, 1, 0, 0, tick++)) });
    const first = emit({ type: 'sample-start', sampleId: 'a#e1' });
    emit({ type: 'turn-end', participantId: 'agent', turn: 1 });
    expect(first).toEqual({ type: 'sample-start', sampleId: 'a#e1', id: 'e1', time: '2025-01-01T00:00:00.000Z' });
    expect(events.map((event) => [event.id, event.time, event.type])).toEqual([
      ['e1', '2025-01-01T00:00:00.000Z', 'sample-start'],
      ['e2', '2025-01-01T00:00:01.000Z', 'turn-end'],
    ]);
  });

  it('rejects a malformed event and does not store it', () => {
    const { emit, events } = createEventRecorder();
    const call = {
      type: 'model-call' as const,
      role: 'agent',
      provider: 'mock',
      modelId: 'm',
      request: { messages: [], settings: {} },
      response: null,
      usage: { inputTokens: 1, outputTokens: 1 },
      costUsd: 0,
      cached: false,
      attempts: 1,
      durationMs: 0,
    };
    expect(emit(call).id).toBe('e1');
    expect(() => emit({ ...call, usage: { inputTokens: Number.NaN, outputTokens: 1 } })).toThrow(
      /invalid 'model-call' event: .* at usage\.inputTokens/,
    );
    expect(events).toHaveLength(1);
  });
});

describe('createEventRecorder without validation', () => {
  it('stamps and stores events as given, without checking them (the run spine trusts its typed events)', () => {
    const { emit, events } = createEventRecorder({ now: () => new Date(Date.UTC(2025, 0, 1)), validate: false });
    const input = { type: 'turn-end' as const, turn: Number.NaN };
    const event = emit(input);
    expect(event).toEqual({ type: 'turn-end', turn: Number.NaN, id: 'e1', time: '2025-01-01T00:00:00.000Z' });
    expect(events).toEqual([event]);
    expect(event).not.toBe(input);
  });
});
