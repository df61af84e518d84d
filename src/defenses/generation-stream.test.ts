import type { LanguageModelV3 } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { generationStream } from './generation-stream.js';

type GenerateResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;

describe('generationStream', () => {
  it('replays a finished generation as stream parts in order', async () => {
    const usage: GenerateResult['usage'] = {
      inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 2, text: 2, reasoning: undefined },
    };
    const toolCall = { type: 'tool-call' as const, toolCallId: 'c1', toolName: 'send', input: '{}' };
    const { stream, response } = generationStream({
      content: [{ type: 'text', text: '' }, { type: 'text', text: 'Hello' }, toolCall],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      warnings: [],
      providerMetadata: { confidant: { note: 'x' } },
      response: { id: 'r1', modelId: 'm', headers: { 'x-id': '1' } },
    });
    const parts: unknown[] = [];
    const reader = stream.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) parts.push(read.value);
    expect(parts).toEqual([
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: 'r1', modelId: 'm' },
      { type: 'text-start', id: 'text-1' },
      { type: 'text-delta', id: 'text-1', delta: 'Hello' },
      { type: 'text-end', id: 'text-1' },
      toolCall,
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        providerMetadata: { confidant: { note: 'x' } },
      },
    ]);
    expect(response).toEqual({ headers: { 'x-id': '1' } });
  });
});
