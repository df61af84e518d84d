import { describe, expect, it } from 'vitest';
import type { EmitEvent } from '../../spec/chat-model.js';
import type { TranscriptEvent } from '../../spec/event.js';
import { MockChatModel, textResult } from '../testing/mock-chat-model.js';
import { wrapChatModel } from '../wrap-chat-model.js';
import { extractReasoning, extractReasoningMiddleware } from './extract-reasoning-middleware.js';
import { recordEventsMiddleware } from './record-events-middleware.js';

describe('extractReasoning', () => {
  it('takes closed <think>, <thinking> and <reasoning> blocks out, any case, and trims the rest', () => {
    expect(extractReasoning('<think>policy says no names</think>\nHere is the table.')).toEqual({
      text: 'Here is the table.',
      reasoning: 'policy says no names',
    });
    expect(extractReasoning('Hi <THINK>a\nb</Think>there <think>c</think>!')).toEqual({
      text: 'Hi there !',
      reasoning: 'a\nb\n\nc',
    });
    expect(extractReasoning('a<THINKING>x</THINKING>b<reasoning>y</reasoning>c')).toEqual({
      text: 'abc',
      reasoning: 'x\n\ny',
    });
  });

  it('reads a draft inside a block as reasoning, so only the final answer is parsed', () => {
    expect(extractReasoning('<think>Answer: Yes</think>\nAnswer: No').text).toBe('Answer: No');
  });

  it('treats everything up to the last unopened closing tag as reasoning', () => {
    expect(extractReasoning('reasoning the template opened</think> Answer')).toEqual({
      text: 'Answer',
      reasoning: 'reasoning the template opened',
    });
    expect(extractReasoning('draft {"score": 0}</think>{"score": 3}').text).toBe('{"score": 3}');
    expect(extractReasoning('one</think>two</thinking>three').text).toBe('three');
  });

  it('treats everything after an opening tag that never closes as reasoning', () => {
    expect(extractReasoning('Answer <think>cut off mid-thought')).toEqual({
      text: 'Answer',
      reasoning: 'cut off mid-thought',
    });
  });

  it('leaves a reply without reasoning exactly as it is', () => {
    expect(extractReasoning('  plain [FIN]  ')).toEqual({ text: '  plain [FIN]  ', reasoning: undefined });
    // Other tags, and near misses of the three, are not reasoning.
    const html = '  <b>bold</b> <thinker> <think >x</think > <reasoned> ';
    expect(extractReasoning(html)).toEqual({ text: html, reasoning: undefined });
  });

  it('gives an empty text for a reply that was only reasoning', () => {
    expect(extractReasoning('<think>only thoughts</think>  ')).toEqual({ text: '', reasoning: 'only thoughts' });
  });
});

describe('extractReasoningMiddleware', () => {
  const ask = { messages: [{ role: 'user' as const, content: 'q' }], settings: {} };

  it('fills reasoning, keeps the provider reasoning first, and records the raw reply in the model-call event', async () => {
    const events: TranscriptEvent[] = [];
    const emit: EmitEvent = (event) => {
      const full = { ...event, id: `e${events.length + 1}`, time: 't' } as TranscriptEvent;
      events.push(full);
      return full;
    };
    const model = new MockChatModel({
      script: [{ ...textResult('<thinking>check</thinking>Done.'), reasoning: 'native' }, 'plain'],
    });
    const wrapped = wrapChatModel({
      model,
      middleware: [extractReasoningMiddleware(), recordEventsMiddleware({ now: () => 0 })],
    });
    const context = { role: 'agent', emit };
    const first = await wrapped.generate(ask, context);
    expect([first.text, first.reasoning]).toEqual(['Done.', 'native\n\ncheck']);
    const second = await wrapped.generate(ask, context);
    expect(second).toMatchObject({ text: 'plain' });
    expect(second.reasoning).toBeUndefined();
    expect(events.map((event) => (event.type === 'model-call' ? event.response?.text : null))).toEqual([
      '<thinking>check</thinking>Done.',
      'plain',
    ]);
  });

  it("leaves the text as written for inlineReasoning: 'keep'", async () => {
    const model = new MockChatModel({ script: '<think>Answer: Yes</think>Answer: No' });
    const wrapped = wrapChatModel({ model, middleware: [extractReasoningMiddleware()] });
    const result = await wrapped.generate({ ...ask, inlineReasoning: 'keep' }, { role: 'judge' });
    expect([result.text, result.reasoning]).toEqual(['<think>Answer: Yes</think>Answer: No', 'Answer: Yes']);
  });
});
