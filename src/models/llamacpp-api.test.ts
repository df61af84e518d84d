import type {
  GgufInsights,
  LLamaChatGenerateResponseOptions,
  Llama,
  LlamaChat,
  LlamaContextSequence,
  LlamaChatResponse as RealChatResponse,
  LlamaContext as RealContext,
  LlamaModel as RealModel,
} from 'node-llama-cpp';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type GgufInsightsInstance,
  importLlamaCpp,
  type LlamaChatResponse,
  type LlamaChatWrapper,
  type LlamaContext,
  type LlamaGenerateOptions,
  type LlamaInstance,
  type LlamaModel,
  type LlamaSequence,
} from './llamacpp-api.js';

describe('the local typing of node-llama-cpp', () => {
  it('fits the real package: each real type has the members the adapter reads, as tsc checks', () => {
    expectTypeOf<Llama>().toExtend<LlamaInstance>();
    expectTypeOf<RealModel>().toExtend<LlamaModel>();
    expectTypeOf<RealContext>().toExtend<LlamaContext>();
    expectTypeOf<LlamaContextSequence>().toExtend<LlamaSequence>();
    expectTypeOf<RealChatResponse>().toExtend<LlamaChatResponse>();
    expectTypeOf<Awaited<ReturnType<LlamaChat['generateResponse']>>>().toExtend<LlamaChatResponse>();
    expectTypeOf<GgufInsights>().toExtend<GgufInsightsInstance>();
    expectTypeOf<ReturnType<LlamaChat['chatWrapper']['generateContextState']>>().toExtend<
      ReturnType<LlamaChatWrapper['generateContextState']>
    >();
    // Tool parameters are JSON schemas to us and GBNF-able schemas to node-llama-cpp, and grammars
    // are opaque here, so those inputs are not compared; the other options we pass must fit.
    expectTypeOf<Omit<LlamaGenerateOptions, 'grammar' | 'functions'>>().toExtend<
      LLamaChatGenerateResponseOptions<undefined>
    >();
  });

  it('loads the installed package through importLlamaCpp, with every export the adapter uses', async () => {
    const real = await import('node-llama-cpp');
    const loaded = await importLlamaCpp();
    expect(loaded.getLlama).toBe(real.getLlama);
    expect(loaded.LlamaChat).toBe(real.LlamaChat);
    expect(loaded.readGgufFileInfo).toBe(real.readGgufFileInfo);
    expect(loaded.GgufInsights).toBe(real.GgufInsights);
    expect(loaded.InsufficientMemoryError).toBe(real.InsufficientMemoryError);
    expect(loaded.LlamaLogLevel.error).toBe(real.LlamaLogLevel.error);
  });
});
