import { describe, expect, it } from 'vitest';
import { MODEL_ROLES } from '../runner/role-registry.js';
import type { EmitEvent, GenerateRequest } from '../spec/chat-model.js';
import { PlanValidationError } from '../spec/errors.js';
import type { TranscriptEvent } from '../spec/event.js';
import { createModelRolesFactory } from './model-roles.js';
import type { WrappedChatModel } from './wrap-chat-model.js';
import type { WrappedEmbeddingModel } from './wrap-embedding-model.js';

type Seen = { request: GenerateRequest; role: string; sampleId?: string; epoch?: number; signal?: AbortSignal };

function fake(modelId: string, seen: Seen[]): WrappedChatModel {
  return {
    provider: 'mock',
    modelId,
    generate: async (request, context) => {
      seen.push({
        request,
        role: context.role,
        ...(context.sampleId === undefined ? {} : { sampleId: context.sampleId }),
        ...(context.epoch === undefined ? {} : { epoch: context.epoch }),
        ...(context.signal === undefined ? {} : { signal: context.signal }),
      });
      return {
        text: modelId,
        toolCalls: [],
        finishReason: 'stop',
        usage: { inputTokens: 0, outputTokens: 0 },
        warnings: [],
      };
    },
  };
}

const emit: EmitEvent = (event) => ({ ...event, id: 'e', time: 't' }) as TranscriptEvent;
const ask = { messages: [{ role: 'user' as const, content: 'q' }], settings: {} };

describe('createModelRolesFactory', () => {
  it('binds models to the sample context and applies fallbacks', async () => {
    const seen: Seen[] = [];
    const factory = createModelRolesFactory({
      roles: MODEL_ROLES,
      bindings: { agent: [fake('agent-model', seen)], judge: [fake('judge-1', seen), fake('judge-2', seen)] },
    });
    const signal = new AbortController().signal;
    const roles = factory({ sampleId: 's7', epoch: 2, emit, signal });
    const generator = roles.model('generator');
    expect([generator.role, generator.modelId]).toEqual(['generator', 'agent-model']);
    expect((await generator.generate(ask)).text).toBe('agent-model');
    expect(seen[0]).toMatchObject({ role: 'generator', sampleId: 's7', epoch: 2 });
    expect(seen[0]?.signal).toBe(signal);
    expect(seen[0]?.request.abortSignal).toBe(signal);
    expect(roles.model('agent-b').modelId).toBe('agent-model');
    expect(roles.model('summarizer').modelId).toBe('judge-1');
    expect(roles.ensemble('judge').map((model) => model.modelId)).toEqual(['judge-1', 'judge-2']);
    expect(roles.has('checker')).toBe(true);
    expect(roles.has('prober')).toBe(false);
  });

  it('never lets the judge fall back, and names the flag to add', () => {
    const factory = createModelRolesFactory({ roles: MODEL_ROLES, bindings: { agent: [fake('a', [])] } });
    const roles = factory({ sampleId: 's', epoch: 1, emit, signal: new AbortController().signal });
    expect(roles.has('judge')).toBe(false);
    expect(() => roles.model('judge')).toThrow(PlanValidationError);
    expect(() => roles.ensemble('judge')).toThrow(/judges never fall back .*--model judge=<provider:model>/);
    expect(() => roles.model('prober')).toThrow(
      'no model is bound to role "prober": add --model prober=<provider:model>',
    );
  });

  it('merges role settings under the request settings', async () => {
    const seen: Seen[] = [];
    const factory = createModelRolesFactory({
      roles: MODEL_ROLES,
      bindings: { agent: [fake('a', seen)] },
      settings: { agent: { temperature: 0.7, seed: 1 }, verifier: { seed: 9 } },
    });
    const roles = factory({ sampleId: 's', epoch: 1, emit, signal: new AbortController().signal });
    await roles.model('agent').generate({ ...ask, settings: { temperature: 0, maxOutputTokens: 5, topP: undefined } });
    await roles.model('verifier').generate(ask);
    expect(seen[0]?.request.settings).toEqual({ temperature: 0, seed: 1, maxOutputTokens: 5 });
    expect(seen[1]?.request.settings).toEqual({ temperature: 0.7, seed: 9 });
  });

  it('keeps an explicit request signal', async () => {
    const seen: Seen[] = [];
    const factory = createModelRolesFactory({ roles: MODEL_ROLES, bindings: { agent: [fake('a', seen)] } });
    const own = new AbortController().signal;
    await factory({ sampleId: 's', epoch: 1, emit, signal: new AbortController().signal })
      .model('agent')
      .generate({ ...ask, abortSignal: own });
    expect(seen[0]?.request.abortSignal).toBe(own);
  });

  it('hands every sample the embedding model bound to the run, with the sample as its caller', async () => {
    const calls: Array<{ texts: string[]; role: string; sampleId?: string; signal?: AbortSignal }> = [];
    const embedder: WrappedEmbeddingModel = {
      provider: 'fixed',
      modelId: '2',
      id: 'fixed:2',
      dimension: 2,
      embed: async (request, context) => {
        calls.push({
          texts: request.texts,
          role: context.role,
          ...(context.sampleId === undefined ? {} : { sampleId: context.sampleId }),
          ...(request.abortSignal === undefined ? {} : { signal: request.abortSignal }),
        });
        return {
          embeddings: request.texts.map((text) => Float32Array.from([text.length, 1])),
          usage: { inputTokens: null },
        };
      },
    };
    const factory = createModelRolesFactory({
      roles: MODEL_ROLES,
      bindings: { agent: [fake('a', [])] },
      embeddings: { embedder },
    });
    const signal = new AbortController().signal;
    const first = factory({ sampleId: 's1', epoch: 1, emit, signal });
    const second = factory({ sampleId: 's2', epoch: 1, emit, signal: new AbortController().signal });
    expect(first.embedder?.()).toMatchObject({ id: 'fixed:2', dimension: 2 });
    expect(await first.embedder?.().embed(['abc'])).toEqual([Float32Array.from([3, 1])]);
    expect(await second.embedder?.('embedder').embed(['a'])).toEqual([Float32Array.from([1, 1])]);
    expect(await first.embedder?.().embed([])).toEqual([]);
    expect(calls.map(({ texts, role, sampleId }) => ({ texts, role, sampleId }))).toEqual([
      { texts: ['abc'], role: 'embedder', sampleId: 's1' },
      { texts: ['a'], role: 'embedder', sampleId: 's2' },
    ]);
    expect(calls[0]?.signal).toBe(signal);
    expect(first.has('embedder')).toBe(true);
    // The embedder is not a chat model, so model() points at embedder() instead, and vice versa.
    expect(() => first.model('embedder')).toThrow(/embedding model, not a chat model/);
    expect(() => first.embedder?.('agent')).toThrow(/role "agent" is a chat model, not an embedding model/);
  });

  it('without an embedder, embedder() names the flag to add', () => {
    const factory = createModelRolesFactory({ roles: MODEL_ROLES, bindings: { agent: [fake('a', [])] } });
    const roles = factory({ sampleId: 's', epoch: 1, emit, signal: new AbortController().signal });
    expect(roles.has('embedder')).toBe(false);
    expect(() => roles.embedder?.()).toThrow(PlanValidationError);
    expect(() => roles.embedder?.()).toThrow(/no embedder is bound to role "embedder": add --model embedder=<spec>/);
    expect(() => roles.model('embedder')).toThrow(/add --model embedder=<spec>/);
  });
});
