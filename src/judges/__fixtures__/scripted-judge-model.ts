import type { BoundModel, EmitEvent, GenerateRequest, GenerateResult } from '../../spec/chat-model.js';
import { type TranscriptEvent, transcriptEventSchema } from '../../spec/event.js';

/** One scripted reply: a text, an error to throw, or a function of the request. */
export type ScriptedReply = string | Error | ((request: GenerateRequest) => string);

/** A judge-role `BoundModel` that answers from a script, one entry per call, and records every request. */
export type ScriptedJudgeModel = BoundModel & { readonly calls: GenerateRequest[] };

/**
 * Test helper: a scripted judge model. Calls past the end of the script throw, so a test
 * that expects N calls fails visibly if the code makes more. `providerMetadata` is attached
 * to every reply when given (to exercise model-call id propagation).
 */
export function scriptedJudgeModel({
  replies,
  modelId = 'm',
  providerMetadata,
}: {
  replies: readonly ScriptedReply[];
  modelId?: string;
  providerMetadata?: (callIndex: number) => Record<string, unknown>;
}): ScriptedJudgeModel {
  const calls: GenerateRequest[] = [];
  return {
    role: 'judge',
    provider: 'mock',
    modelId,
    calls,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      const index = calls.length;
      calls.push(request);
      const reply = replies[index];
      if (reply === undefined) throw new Error(`script of ${modelId} exhausted at call ${index + 1}`);
      if (reply instanceof Error) throw reply;
      const text = typeof reply === 'function' ? reply(request) : reply;
      return {
        text,
        toolCalls: [],
        finishReason: 'stop',
        usage: { inputTokens: 1, outputTokens: 1 },
        warnings: [],
        ...(providerMetadata === undefined ? {} : { providerMetadata: providerMetadata(index) }),
      };
    },
  };
}

/**
 * Test helper: an `EmitEvent` that keeps events in memory with ids `ev-1`, `ev-2`, … and a fixed
 * time. Every event is validated against the spec's event schema, so a malformed event fails the test.
 */
export function recordingEmit(): { emit: EmitEvent; events: TranscriptEvent[] } {
  const events: TranscriptEvent[] = [];
  const emit: EmitEvent = (input) => {
    const event = transcriptEventSchema.parse({
      ...input,
      id: `ev-${events.length + 1}`,
      time: '2025-01-01T00:00:00.000Z',
    });
    events.push(event);
    return event;
  };
  return { emit, events };
}
