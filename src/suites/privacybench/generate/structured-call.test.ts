import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GenerationError } from '../../../generation/index.js';
import { extractReasoningMiddleware } from '../../../models/index.js';
import { MockChatModel, type MockScript } from '../../../models/testing/index.js';
import { wrapChatModel } from '../../../models/wrap-chat-model.js';
import type { BoundModel } from '../../../spec/chat-model.js';
import { GENERATION_PROMPTS } from './generation-prompts.js';
import { callStructured } from './structured-call.js';

const schema = z.object({ people: z.array(z.object({ name: z.string().min(1), persona: z.string().min(1) })) });

function model(script: MockScript): { model: BoundModel; mock: MockChatModel } {
  const mock = new MockChatModel({ script });
  // Reasoning leaves the text in the model stack, as in a real run.
  const wrapped = wrapChatModel({ model: mock, middleware: [extractReasoningMiddleware()] });
  return {
    model: {
      role: 'datagen',
      provider: 'mock',
      modelId: 'm',
      generate: (request) => wrapped.generate(request, { role: 'datagen' }),
    },
    mock,
  };
}

const call = (bound: BoundModel, maxParseRetries = 2) =>
  callStructured({
    model: bound,
    unit: 'seeds',
    template: GENERATION_PROMPTS.seeds,
    task: { count: 1 },
    feedback: '\nPlease fix: x\n',
    schema,
    seed: 42,
    ordinalBase: 6,
    maxParseRetries,
  });

describe('callStructured', () => {
  it('sends the rendered task, feedback, seed and JSON schema, and parses a fenced answer', async () => {
    const { model: bound, mock } = model(
      '<think>{"people": []}</think>Sure:\n```json\n{"people": [{"name": "Ada", "persona": "x"}]}\n```',
    );
    const result = await call(bound);
    expect(result).toMatchObject({ value: { people: [{ name: 'Ada', persona: 'x' }] }, calls: 1 });
    const [request] = mock.calls;
    expect(request?.messages[0]?.content).toContain('<task>\n{\n  "count": 1\n}\n</task>');
    expect(request?.messages[0]?.content).toContain('Please fix: x');
    expect(request?.settings).toEqual({ seed: 42 });
    expect(request?.sampleOrdinal).toBe(6);
    expect(request?.responseSchema).toEqual({ name: 'seed_people', jsonSchema: z.toJSONSchema(schema) });
  });

  it('asks again with the next sampleOrdinal when a reply does not parse', async () => {
    const { model: bound, mock } = model(['no json here', '{"people": [{"name": ""}]}', '{"people": []}']);
    const result = await call(bound);
    expect(result).toEqual({ value: { people: [] }, raw: '{"people": []}', calls: 3 });
    expect(mock.calls.map((request) => request.sampleOrdinal)).toEqual([6, 7, 8]);
  });

  it('never accepts garbage: after the retries it throws a GenerationError naming the unit', async () => {
    const { model: bound, mock } = model('I cannot do that.');
    const error = await call(bound, 1).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GenerationError);
    expect((error as GenerationError).unit).toBe('seeds');
    expect((error as Error).message).toMatch(
      /no valid answer for unit 'seeds': no parseable 'seed_people' reply in 2 tries: the reply holds no JSON object/,
    );
    expect(mock.calls).toHaveLength(2);
  });

  it('lets provider faults through unchanged', async () => {
    const { model: bound } = model(new Error('HTTP 500'));
    await expect(call(bound)).rejects.toThrow('HTTP 500');
  });
});
