import { describe, expect, it } from 'vitest';
import { MissingApiKeyError, ModelSpecError } from '../spec/errors.js';
import { AdaptiveLimiter } from './adaptive-limiter.js';
import { findProvider, providerRegistry } from './provider-registry.js';
import { MOCK_REFUSAL } from './providers/mock-provider.js';
import { resolveChatModel } from './resolve-chat-model.js';

const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }], settings: {} });
const noFetch: typeof fetch = () => Promise.reject(new Error('tests make no network calls'));

describe('providerRegistry', () => {
  it('lists the built-in providers as values with unique ids', () => {
    const ids = providerRegistry.map((provider) => provider.id);
    expect(ids).toEqual(['openai', 'anthropic', 'google', 'openai-compatible', 'ollama', 'vllm', 'llamacpp', 'mock']);
    expect(findProvider('ollama')?.defaultBaseURL).toBe('http://127.0.0.1:11434/v1');
    expect(findProvider('vllm')?.defaultBaseURL).toBe('http://127.0.0.1:8000/v1');
    expect(findProvider('openai-compatible')?.requiresBaseURL).toBe(true);
    expect(findProvider('nope')).toBeUndefined();
    for (const provider of providerRegistry) expect(provider.description.length).toBeGreaterThan(10);
  });
});

describe('resolveChatModel', () => {
  it('rejects an unknown provider, listing the known ones', async () => {
    const error = await resolveChatModel({ spec: 'acme:x', env: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelSpecError);
    expect((error as Error).message).toBe(
      'unknown provider "acme" in "acme:x"; known providers: openai, anthropic, google, openai-compatible, ollama, vllm, llamacpp, mock (see `confidant list providers`)',
    );
    await expect(resolveChatModel({ spec: 'reference:oracle', env: {} })).rejects.toThrow(/resolved by the suite/);
  });

  it('names the missing key variable and how to set it', async () => {
    await expect(resolveChatModel({ spec: 'openai:gpt-4o', env: {} })).rejects.toThrow(MissingApiKeyError);
    await expect(resolveChatModel({ spec: 'openai:gpt-4o', env: { OPENAI_API_KEY: '  ' } })).rejects.toThrow(
      'openai:gpt-4o needs an API key: set OPENAI_API_KEY in the environment (for example `export OPENAI_API_KEY=<your key>`)',
    );
    await expect(resolveChatModel({ spec: 'google:gemini-2.5-flash', env: {} })).rejects.toThrow(
      /GOOGLE_GENERATIVE_AI_API_KEY or GEMINI_API_KEY/,
    );
  });

  it('creates AI SDK adapters with default endpoints when keys are present', async () => {
    const openai = await resolveChatModel({ spec: 'openai:gpt-4o', env: { OPENAI_API_KEY: 'k' }, fetch: noFetch });
    expect([openai.model.provider, openai.model.modelId, openai.endpoints]).toEqual([
      'openai',
      'gpt-4o',
      ['https://api.openai.com/v1'],
    ]);
    expect(openai.limiter).toBeInstanceOf(AdaptiveLimiter);
    const responses = await resolveChatModel({ spec: 'openai:responses/gpt-5', env: { OPENAI_API_KEY: 'k' } });
    expect(responses.model.modelId).toBe('responses/gpt-5');
    const anthropic = await resolveChatModel({ spec: 'anthropic:claude-haiku-4-5', env: { ANTHROPIC_API_KEY: 'k' } });
    expect(anthropic.model.provider).toBe('anthropic');
    const google = await resolveChatModel({ spec: 'google:gemini-2.5-flash', env: { GEMINI_API_KEY: 'k' } });
    expect(google.endpoints).toEqual(['https://generativelanguage.googleapis.com/v1beta']);
    const ollama = await resolveChatModel({ spec: 'ollama:qwen3:32b', env: {} });
    expect([ollama.model.modelId, ollama.endpoints]).toEqual(['qwen3:32b', ['http://127.0.0.1:11434/v1']]);
  });

  it('checks base-URL rules', async () => {
    await expect(resolveChatModel({ spec: 'openai-compatible:m', env: {} })).rejects.toThrow(
      'openai-compatible needs a base URL in the spec, e.g. openai-compatible:my-model@http://127.0.0.1:8080/v1',
    );
    await expect(resolveChatModel({ spec: 'mock:echo@http://h/v1', env: {} })).rejects.toThrow(/take no @baseURL/);
  });

  it('pools several base URLs, sharing limiters by redacted endpoint', async () => {
    const keys: string[] = [];
    const resolved = await resolveChatModel({
      spec: 'vllm:m@http://h1:8000/v1?x=1,http://h2:8000/v1',
      env: {},
      limiterFor: (key) => {
        keys.push(key);
        return new AdaptiveLimiter();
      },
    });
    expect(resolved.limiter).toBeNull();
    expect(resolved.endpoints).toEqual(['http://h1:8000/v1', 'http://h2:8000/v1']);
    expect(keys).toEqual(['http://h1:8000/v1', 'http://h2:8000/v1']);
    expect(resolved.model.provider).toBe('vllm');
  });

  it('resolves the offline mock models', async () => {
    const echo = await resolveChatModel({ spec: 'mock:echo', env: {} });
    expect(echo.endpoints).toEqual([]);
    expect((await echo.model.doGenerate(ask('repeat me'))).text).toBe('repeat me');
    const refuse = await resolveChatModel({ spec: 'mock:refuse', env: {} });
    expect((await refuse.model.doGenerate(ask('x'))).text).toBe(MOCK_REFUSAL);
    const fixed = await resolveChatModel({ spec: 'mock:fixed/Yes, share it.', env: {} });
    expect((await fixed.model.doGenerate(ask('x'))).text).toBe('Yes, share it.');
    await expect(resolveChatModel({ spec: 'mock:scripted', env: {} })).rejects.toThrow(/mock:echo/);
  });
});
