import { describe, expect, it } from 'vitest';
import { extractReasoningMiddleware } from '../models/middleware/extract-reasoning-middleware.js';
import { MockChatModel } from '../models/testing/mock-chat-model.js';
import { wrapChatModel } from '../models/wrap-chat-model.js';
import type { BoundModel } from '../spec/chat-model.js';
import type { Message } from '../spec/message.js';
import { createThreadSummarizer, estimateThreadTokens, SUMMARY_PREFIX } from './thread-summarizer.js';

function summarizer(): { model: BoundModel; mock: MockChatModel } {
  const mock = new MockChatModel({ script: '<think>hm</think>A asked for slots; B gave Tuesday.' });
  const wrapped = wrapChatModel({ model: mock, middleware: [extractReasoningMiddleware()] });
  const generate: BoundModel['generate'] = (request) => wrapped.generate(request, { role: 'summarizer' });
  return { mock, model: { role: 'summarizer', provider: 'mock', modelId: 's', generate } };
}

const text = (role: 'user' | 'assistant', characters: number): Message => ({ role, content: 'x'.repeat(characters) });

describe('createThreadSummarizer', () => {
  const thread: Message[] = [
    { role: 'system', content: 'sys' },
    text('user', 400),
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'write', input: {} }] },
    { role: 'tool', toolCallId: 'c1', toolName: 'write', content: 'y'.repeat(40) },
    text('assistant', 40),
    text('user', 40),
  ];

  it('leaves a thread under the threshold alone', async () => {
    const { model, mock } = summarizer();
    const compact = createThreadSummarizer({ model, atTokens: 1000, keepTokens: 50 });
    expect(await compact({ thread, lastInputTokens: 999 })).toBe(thread);
    expect(mock.calls).toHaveLength(0);
  });

  it('condenses older messages into one summary, keeping the system prompt and recent messages', async () => {
    const { model, mock } = summarizer();
    const compact = createThreadSummarizer({ model, atTokens: 100, keepTokens: 30 });
    const compacted = await compact({ thread, lastInputTokens: null });
    // The 30-token budget reaches back into the tool result, which cannot open the kept part.
    expect(compacted).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: `${SUMMARY_PREFIX}\nA asked for slots; B gave Tuesday.` },
      text('assistant', 40),
      text('user', 40),
    ]);
    expect(mock.calls[0]?.messages[1]?.content).toContain('[tool call write] {}');
  });

  it('uses the reported input tokens when there are some', async () => {
    const { model, mock } = summarizer();
    const compact = createThreadSummarizer({ model, atTokens: 30000, keepTokens: 10 });
    await compact({ thread, lastInputTokens: 30001 });
    expect(mock.calls).toHaveLength(1);
    expect(estimateThreadTokens([text('user', 8)])).toBe(2);
  });
});
