import type { LanguageModelV3 } from '@ai-sdk/provider';
import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../spec/chat-model.js';
import { ProviderError } from '../spec/errors.js';
import { aiSdkChatModel, toSdkPrompt } from './ai-sdk-chat-model.js';

type CallOptions = Parameters<LanguageModelV3['doGenerate']>[0];
type SdkResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;

function fakeModel(respond: (options: CallOptions) => Promise<SdkResult>): LanguageModelV3 & { seen: CallOptions[] } {
  const seen: CallOptions[] = [];
  return {
    specificationVersion: 'v3',
    provider: 'fake.chat',
    modelId: 'fake-1',
    supportedUrls: {},
    seen,
    doGenerate: (options) => {
      seen.push(options);
      return respond(options);
    },
    doStream: () => Promise.reject(new Error('not used')),
  };
}

const usage = (input: number | undefined, output: number | undefined): SdkResult['usage'] => ({
  inputTokens: { total: input, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: undefined, reasoning: undefined },
});

const request: GenerateRequest = {
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'read two files' },
    {
      role: 'assistant',
      content: '',
      reasoning: 'hidden',
      toolCalls: [
        { id: 'c1', name: 'read', input: { path: 'a' } },
        { id: 'c2', name: 'read', input: { path: 'b' } },
      ],
    },
    { role: 'tool', toolCallId: 'c1', toolName: 'read', content: 'A' },
    { role: 'tool', toolCallId: 'c2', toolName: 'read', content: 'no such file', isError: true },
  ],
  tools: [{ name: 'read', description: 'read a file', inputSchema: { type: 'object', properties: {} } }],
  toolChoice: 'required',
  settings: { temperature: 0, topP: 0.9, maxOutputTokens: 50, seed: 7, stop: ['END'] },
  responseSchema: { name: 'answer', jsonSchema: { type: 'object' } },
};

describe('aiSdkChatModel', () => {
  it('maps the request to V3 call options', async () => {
    const model = fakeModel(async () => ({
      content: [{ type: 'text', text: 'ok' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: usage(10, 2),
      warnings: [],
    }));
    await aiSdkChatModel(model, { provider: 'fake' }).doGenerate(request);
    const options = model.seen[0]!;
    expect(options.prompt).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: [{ type: 'text', text: 'read two files' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'a' } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'read', input: { path: 'b' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: 'A' } },
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'read',
            output: { type: 'error-text', value: 'no such file' },
          },
        ],
      },
    ]);
    expect(options.tools).toEqual([
      { type: 'function', name: 'read', description: 'read a file', inputSchema: { type: 'object', properties: {} } },
    ]);
    expect(options.toolChoice).toEqual({ type: 'required' });
    expect(options.temperature).toBe(0);
    expect(options.topP).toBe(0.9);
    expect(options.maxOutputTokens).toBe(50);
    expect(options.seed).toBe(7);
    expect(options.stopSequences).toEqual(['END']);
    expect(options.responseFormat).toEqual({ type: 'json', name: 'answer', schema: { type: 'object' } });
    expect(options.abortSignal).toBeInstanceOf(AbortSignal);
  });

  it('maps the result back, with null for unreported usage', async () => {
    const model = fakeModel(async () => ({
      content: [
        { type: 'reasoning', text: 'thinking' },
        { type: 'text', text: 'Hello ' },
        { type: 'text', text: 'world' },
        { type: 'tool-call', toolCallId: 't1', toolName: 'send', input: '{"to":"bob"}' },
        { type: 'tool-call', toolCallId: 't2', toolName: 'send', input: '{broken' },
        { type: 'tool-call', toolCallId: 't3', toolName: 'noop', input: '' },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: usage(12, undefined),
      warnings: [
        { type: 'unsupported', feature: 'seed', details: 'ignored' },
        { type: 'other', message: 'note' },
      ],
      providerMetadata: { fake: { id: 'r1' } },
    }));
    const result = await aiSdkChatModel(model).doGenerate({
      messages: [{ role: 'user', content: 'hi' }],
      settings: {},
    });
    expect(result).toEqual({
      text: 'Hello world',
      toolCalls: [
        { id: 't1', name: 'send', input: { to: 'bob' } },
        { id: 't2', name: 'send', input: '{broken' },
        { id: 't3', name: 'noop', input: {} },
      ],
      finishReason: 'tool-calls',
      usage: { inputTokens: 12, outputTokens: null },
      warnings: ['unsupported: seed (ignored)', 'note'],
      providerMetadata: { fake: { id: 'r1' } },
    });
  });

  it('maps SDK errors to ProviderError kinds', async () => {
    const fail = (error: unknown) =>
      aiSdkChatModel(
        fakeModel(() => Promise.reject(error)),
        { provider: 'fake' },
      );
    const apiError = (statusCode: number | undefined, responseHeaders?: Record<string, string>) =>
      new APICallError({
        message: 'boom',
        url: 'http://127.0.0.1/v1/chat/completions',
        requestBodyValues: {},
        ...(statusCode === undefined ? {} : { statusCode }),
        ...(responseHeaders ? { responseHeaders } : {}),
      });
    const simple = { messages: [{ role: 'user' as const, content: 'x' }], settings: {} };
    const caught = async (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (error: unknown) => error,
      );

    const limited = await caught(fail(apiError(429, { 'retry-after': '3' })).doGenerate(simple));
    expect(limited).toBeInstanceOf(ProviderError);
    expect(limited).toMatchObject({ kind: 'rate-limit', status: 429, retryAfterMs: 3000 });
    expect(await caught(fail(apiError(503)).doGenerate(simple))).toMatchObject({ kind: 'transient', status: 503 });
    expect(await caught(fail(apiError(400)).doGenerate(simple))).toMatchObject({ kind: 'deterministic', status: 400 });
    expect(await caught(fail(apiError(undefined)).doGenerate(simple))).toMatchObject({ kind: 'transient' });
    expect(await caught(fail(new TypeError('fetch failed')).doGenerate(simple))).toMatchObject({ kind: 'transient' });
    expect(await caught(fail(new RangeError('bug')).doGenerate(simple))).toMatchObject({ kind: 'deterministic' });
  });

  it('turns a client timeout into a transient error', async () => {
    const hang = fakeModel(
      (options) =>
        new Promise((_, reject) => {
          options.abortSignal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const error = await aiSdkChatModel(hang, { provider: 'fake', timeoutMs: 20 })
      .doGenerate({ messages: [{ role: 'user', content: 'x' }], settings: {} })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'transient' });
    expect((error as Error).message).toContain('no response within 20 ms');
  });

  it('rethrows the caller abort reason instead of a provider error', async () => {
    const hang = fakeModel(
      (options) =>
        new Promise((_, reject) => {
          options.abortSignal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const controller = new AbortController();
    const pending = aiSdkChatModel(hang).doGenerate({
      messages: [{ role: 'user', content: 'x' }],
      settings: {},
      abortSignal: controller.signal,
    });
    const reason = new Error('stop now');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('scrubs secrets from error messages', async () => {
    const error = await aiSdkChatModel(
      fakeModel(() => Promise.reject(new Error('bad key sk-test-SECRET123'))),
      {
        secrets: ['sk-test-SECRET123'],
      },
    )
      .doGenerate({ messages: [{ role: 'user', content: 'x' }], settings: {} })
      .then(
        () => '',
        (caught: unknown) => (caught instanceof Error ? caught.message : ''),
      );
    expect(error).toContain('[redacted]');
    expect(error).not.toContain('SECRET123');
  });

  it('sends an assistant text reply as a text part', () => {
    expect(toSdkPrompt([{ role: 'assistant', content: 'hi' }])).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
    ]);
  });
});
