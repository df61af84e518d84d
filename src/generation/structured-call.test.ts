import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { textResult } from '../models/testing/mock-chat-model.js';
import type { BoundModel, GenerateRequest } from '../spec/chat-model.js';
import { parseStructuredReply, requestStructuredReply, responseJsonSchema } from './structured-call.js';

const pacRequirementsReplySchema = z.object({ requirements: z.array(z.string().min(1)).min(1) });

function replying(texts: string[]): { model: BoundModel; requests: GenerateRequest[] } {
  const requests: GenerateRequest[] = [];
  const model: BoundModel = {
    role: 'datagen',
    provider: 'mock',
    modelId: 'list',
    async generate(request) {
      requests.push(request);
      const text = texts[requests.length - 1];
      if (text === undefined) throw new Error('script exhausted');
      return textResult(text);
    },
  };
  return { model, requests };
}

describe('parseStructuredReply', () => {
  it('reads the fenced JSON before braces in the prose (reasoning is already out, by the middleware)', () => {
    const text = 'Not {"requirements": ["draft"]} but:\n```json\n{"requirements": ["final"]}\n```';
    expect(parseStructuredReply({ text, schema: pacRequirementsReplySchema })).toEqual({
      ok: true,
      value: { requirements: ['final'] },
    });
  });

  it('says why a reply does not parse', () => {
    expect(parseStructuredReply({ text: 'no json here', schema: pacRequirementsReplySchema })).toEqual({
      ok: false,
      problem: 'the reply holds no JSON object',
    });
    expect(parseStructuredReply({ text: '{"requirements": 3}', schema: pacRequirementsReplySchema })).toEqual({
      ok: false,
      problem:
        'the JSON does not have the expected shape (requirements: Invalid input: expected array, received number)',
    });
  });
});

describe('requestStructuredReply', () => {
  it('sends the schema and seed, and retries a garbage reply with the next sample ordinal', async () => {
    const { model, requests } = replying(['garbage', '{"requirements": ["a"]}']);
    const reply = await requestStructuredReply({
      model,
      messages: [{ role: 'user', content: 'go' }],
      schema: pacRequirementsReplySchema,
      schemaName: 'pac_requirements',
      seed: 7,
      ordinalBase: 20,
      maxParseRetries: 2,
    });
    expect(reply).toEqual({ ok: true, value: { requirements: ['a'] }, raw: '{"requirements": ["a"]}', calls: 2 });
    expect(requests.map((request) => request.sampleOrdinal)).toEqual([20, 21]);
    expect(requests[0]?.settings).toEqual({ seed: 7 });
    expect(requests[0]?.responseSchema).toEqual({
      name: 'pac_requirements',
      jsonSchema: responseJsonSchema(pacRequirementsReplySchema),
    });
    expect(responseJsonSchema(pacRequirementsReplySchema)).toMatchObject({
      type: 'object',
      required: ['requirements'],
    });
  });

  it('gives up after the retries without returning a value', async () => {
    const { model, requests } = replying(['nope', '{"other": 1}']);
    const reply = await requestStructuredReply({
      model,
      messages: [{ role: 'user', content: 'go' }],
      schema: pacRequirementsReplySchema,
      schemaName: 'pac_requirements',
      seed: 0,
      ordinalBase: 0,
      maxParseRetries: 1,
    });
    expect(requests).toHaveLength(2);
    expect(reply.ok).toBe(false);
    expect(reply).toMatchObject({ calls: 2, raw: '{"other": 1}' });
    expect(reply.ok ? '' : reply.problem).toBe(
      "no parseable 'pac_requirements' reply in 2 tries: the JSON does not have the expected shape " +
        '(requirements: Invalid input: expected array, received undefined); the reply began "{\\"other\\": 1}"',
    );
  });

  it('does not call the model once the signal is aborted', async () => {
    const { model, requests } = replying(['{}']);
    const controller = new AbortController();
    controller.abort();
    await expect(
      requestStructuredReply({
        model,
        messages: [],
        schema: pacRequirementsReplySchema,
        schemaName: 'pac_requirements',
        seed: 0,
        ordinalBase: 0,
        maxParseRetries: 0,
        signal: controller.signal,
      }),
    ).rejects.toThrow();
    expect(requests).toEqual([]);
  });
});
