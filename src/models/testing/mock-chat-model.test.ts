import { describe, expect, it } from 'vitest';
import type { GenerateResult } from '../../spec/chat-model.js';
import { MockChatModel, textResult } from './mock-chat-model.js';

const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }], settings: {} });

describe('MockChatModel', () => {
  it('consumes an array one answer per call, then fails', async () => {
    const model = new MockChatModel({ script: ['one', 'two'] });
    expect((await model.doGenerate(ask('a'))).text).toBe('one');
    expect((await model.doGenerate(ask('b'))).text).toBe('two');
    await expect(model.doGenerate(ask('c'))).rejects.toThrow('script exhausted after 2 answers (call 3)');
    expect(model.calls.map((call) => call.messages[0]?.content)).toEqual(['a', 'b', 'c']);
  });

  it('repeats a single answer', async () => {
    const model = new MockChatModel({ script: 'same', usage: { inputTokens: 3, outputTokens: 1 } });
    const first = await model.doGenerate(ask('x'));
    const second = await model.doGenerate(ask('y'));
    expect(first).toEqual(textResult('same', { inputTokens: 3, outputTokens: 1 }));
    expect(second.text).toBe('same');
  });

  it('estimates usage from lengths by default', async () => {
    const model = new MockChatModel({ script: 'abcde' });
    const result = await model.doGenerate(ask('12345678'));
    expect(result.usage).toEqual({ inputTokens: 2, outputTokens: 2 });
  });

  it('calls a script function with the request and call index, and can throw', async () => {
    const model = new MockChatModel({
      script: (request, index) => {
        if (index === 1) throw new Error('fault');
        return `${index}:${request.messages.at(-1)?.content}`;
      },
    });
    expect((await model.doGenerate(ask('hi'))).text).toBe('0:hi');
    await expect(model.doGenerate(ask('again'))).rejects.toThrow('fault');
    expect(model.calls).toHaveLength(2);
  });

  it('returns full results and throws scripted errors', async () => {
    const toolCall: GenerateResult = {
      text: '',
      toolCalls: [{ id: 't1', name: 'send', input: { to: 'x' } }],
      finishReason: 'tool-calls',
      usage: { inputTokens: null, outputTokens: null },
      warnings: [],
    };
    const model = new MockChatModel({ script: [toolCall, new Error('scripted failure')] });
    expect(await model.doGenerate(ask('a'))).toBe(toolCall);
    await expect(model.doGenerate(ask('b'))).rejects.toThrow('scripted failure');
  });

  it('honours an aborted signal', async () => {
    const model = new MockChatModel({ script: 'x' });
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(model.doGenerate({ ...ask('a'), abortSignal: controller.signal })).rejects.toThrow('gone');
  });

  it('has the mock identity by default', () => {
    const model = new MockChatModel({ script: 'x' });
    expect([model.specificationVersion, model.provider, model.modelId]).toEqual(['confidant-1', 'mock', 'scripted']);
  });
});
