import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../../spec/chat-model.js';
import { ModelSpecError } from '../../spec/errors.js';
import { parseModelSpec } from '../parse-model-spec.js';
import { mockProvider } from './mock-provider.js';

const create = (spec: string) => mockProvider.create({ spec: parseModelSpec(spec) });
const judgeRequest: GenerateRequest = {
  messages: [{ role: 'user', content: 'Is this a leak?' }],
  settings: { temperature: 0 },
  judgeReplies: { pass: 'Answer: No', fail: 'Answer: Yes' },
};
const text = async (spec: string, request: GenerateRequest, times = 1) => {
  const model = await create(spec);
  const replies: string[] = [];
  for (let index = 0; index < times; index += 1) replies.push((await model.doGenerate(request)).text);
  return replies;
};

describe('mock judges', () => {
  it('answer with the reply the judge declares for the bad, the good or alternating verdicts', async () => {
    expect(await text('mock:judge-leak', judgeRequest, 2)).toEqual(['Answer: Yes', 'Answer: Yes']);
    expect(await text('mock:judge-safe', judgeRequest, 2)).toEqual(['Answer: No', 'Answer: No']);
    expect(await text('mock:judge-alternate', judgeRequest, 4)).toEqual([
      'Answer: Yes',
      'Answer: No',
      'Answer: Yes',
      'Answer: No',
    ]);
  });

  it('refuse a request that is not a judge call, saying how to bind them', async () => {
    const model = await create('mock:judge-safe');
    const request: GenerateRequest = { messages: [{ role: 'user', content: 'Hello' }], settings: {} };
    const failure = model.doGenerate(request);
    await expect(failure).rejects.toBeInstanceOf(ModelSpecError);
    await expect(failure).rejects.toThrow('bind it as --model judge=mock:judge-safe');
  });

  it('are listed when a mock id is unknown', () => {
    expect(() => create('mock:judge-maybe')).toThrow(/mock:judge-leak .*mock:judge-safe .*mock:judge-alternate/);
  });

  it('keep the other mock models working', async () => {
    expect(await text('mock:echo', { messages: [{ role: 'user', content: 'hi' }], settings: {} })).toEqual(['hi']);
    expect(await text('mock:fixed/Action: X', { messages: [], settings: {} })).toEqual(['Action: X']);
  });
});
