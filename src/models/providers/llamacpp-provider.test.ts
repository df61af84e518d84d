import { describe, expect, it } from 'vitest';
import { tinyLlamaGguf } from '../../../test/support/tiny-llama-gguf.js';
import { ModelSpecError } from '../../spec/errors.js';
import { resolveChatModel } from '../resolve-chat-model.js';
import { llamaCppEnvOptions } from './llamacpp-provider.js';

describe('llamaCppEnvOptions', () => {
  it('reads the engine settings from the environment, and nothing when they are unset or blank', () => {
    expect(llamaCppEnvOptions({})).toEqual({});
    expect(llamaCppEnvOptions({ CONFIDANT_LLAMACPP_THREADS: ' ', CONFIDANT_LLAMACPP_GPU: '' })).toEqual({});
    expect(
      llamaCppEnvOptions({
        CONFIDANT_LLAMACPP_GPU: 'CUDA',
        CONFIDANT_LLAMACPP_THREADS: '3',
        CONFIDANT_LLAMACPP_CONTEXT_SIZE: '16384',
        CONFIDANT_LLAMACPP_SEQUENCES: '2',
      }),
    ).toEqual({ gpu: 'cuda', threads: 3, contextSize: 16384, sequences: 2 });
    expect(llamaCppEnvOptions({ CONFIDANT_LLAMACPP_GPU: 'off' })).toEqual({ gpu: false });
    expect(llamaCppEnvOptions({ CONFIDANT_LLAMACPP_GPU: 'auto' })).toEqual({ gpu: 'auto' });
  });

  it('rejects bad values with a message naming the variable', () => {
    expect(() => llamaCppEnvOptions({ CONFIDANT_LLAMACPP_THREADS: 'two' })).toThrow(ModelSpecError);
    expect(() => llamaCppEnvOptions({ CONFIDANT_LLAMACPP_THREADS: '0' })).toThrow(
      'CONFIDANT_LLAMACPP_THREADS must be a positive whole number, got "0"',
    );
    expect(() => llamaCppEnvOptions({ CONFIDANT_LLAMACPP_CONTEXT_SIZE: '1.5' })).toThrow(
      'CONFIDANT_LLAMACPP_CONTEXT_SIZE must be a positive whole number, got "1.5"',
    );
    expect(() => llamaCppEnvOptions({ CONFIDANT_LLAMACPP_GPU: 'rocm' })).toThrow(
      'CONFIDANT_LLAMACPP_GPU must be one of false, off, cpu, auto, cuda, vulkan, metal, got "rocm"',
    );
  });
});

describe('the llamacpp provider through resolveChatModel', () => {
  it('creates a model for the spec path with the settings of the environment it is given', async () => {
    const path = tinyLlamaGguf();
    const { model, endpoints } = await resolveChatModel({
      spec: `llamacpp:${path}`,
      env: { CONFIDANT_LLAMACPP_THREADS: '1', CONFIDANT_LLAMACPP_CONTEXT_SIZE: '512' },
    });
    expect(endpoints).toEqual([]);
    const result = await model.doGenerate({
      messages: [{ role: 'user', content: 'Hello?' }],
      settings: { maxOutputTokens: 3, temperature: 0 },
    });
    expect(result.usage.outputTokens).toBe(3);
    expect(result.providerMetadata?.llamacpp).toEqual({ contextSize: 512, sequences: 1, threads: 1, gpu: false });
  });

  it('rejects a base URL and a missing file as user errors', async () => {
    await expect(resolveChatModel({ spec: 'llamacpp:/models/x.gguf@http://127.0.0.1:1/v1', env: {} })).rejects.toThrow(
      'llamacpp models take no @baseURL: use llamacpp:/models/qwen3-4b-q4.gguf',
    );
    await expect(resolveChatModel({ spec: 'llamacpp:/models/none.gguf', env: {} })).rejects.toThrow(
      /^llamacpp model file not found: \/models\/none\.gguf/,
    );
  });
});
