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
import { describe, expect, it } from 'vitest';
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

// Compile-time checks: each real node-llama-cpp type must have the members the adapter reads
// with the types it expects. If the package changes them, `tsc` fails on these lines.
type Fits<Real extends Local, Local> = Real;
export type RealTypesFitLocalOnes = [
  Fits<Llama, LlamaInstance>,
  Fits<RealModel, LlamaModel>,
  Fits<RealContext, LlamaContext>,
  Fits<LlamaContextSequence, LlamaSequence>,
  // Tool parameters are JSON schemas to us and GBNF-able schemas to node-llama-cpp, and grammars
  // are opaque here, so those inputs are not compared; the other options we pass must fit.
  Fits<Omit<LlamaGenerateOptions, 'grammar' | 'functions'>, LLamaChatGenerateResponseOptions<undefined>>,
  Fits<Awaited<ReturnType<LlamaChat['generateResponse']>>, LlamaChatResponse>,
  Fits<
    ReturnType<LlamaChat['chatWrapper']['generateContextState']>,
    ReturnType<LlamaChatWrapper['generateContextState']>
  >,
  Fits<RealChatResponse, LlamaChatResponse>,
  Fits<GgufInsights, GgufInsightsInstance>,
];

describe('the local typing of node-llama-cpp', () => {
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
