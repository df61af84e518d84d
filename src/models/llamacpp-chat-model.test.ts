import { describe, expect, it } from 'vitest';
import { tinyLlamaGguf, tinyLlamaWords } from '../../test/support/tiny-llama-gguf.js';
import type { GenerateRequest } from '../spec/chat-model.js';
import { ProviderError } from '../spec/errors.js';
import { createLlamaCppChatModel } from './llamacpp-chat-model.js';

// Real inference: node-llama-cpp (a dev dependency) runs llama.cpp's prebuilt CPU binary on a
// tiny llama model that the test support builds from a seed. One thread: on a shared 2-core
// machine more threads spin-wait on each other (see docs/local-models.md).
const modelPath = tinyLlamaGguf();
const modelOptions = { modelPath, threads: 1 };

const question = (settings: GenerateRequest['settings'], content = 'What is the door code?'): GenerateRequest => ({
  messages: [
    { role: 'system', content: 'You keep secrets.' },
    { role: 'user', content },
  ],
  settings,
});

describe('createLlamaCppChatModel on a real GGUF file', () => {
  it('generates words of the model, stops at maxOutputTokens and reports the prompt and answer tokens', async () => {
    const model = await createLlamaCppChatModel(modelOptions);
    expect(model).toMatchObject({ provider: 'llamacpp', modelId: modelPath });
    const result = await model.doGenerate(question({ maxOutputTokens: 12, temperature: 0.8, seed: 1 }));
    const words = result.text.trim().split(/\s+/);
    expect(words).toHaveLength(12);
    for (const word of words) expect(tinyLlamaWords).toContain(word);
    expect(result.finishReason).toBe('length');
    expect(result.toolCalls).toEqual([]);
    expect(result.usage.outputTokens).toBe(12);
    // Each " the" is one token of the tiny vocabulary: three more of them, three more input tokens.
    const longer = await model.doGenerate(
      question({ maxOutputTokens: 1, temperature: 0 }, 'What is the door code? the the the'),
    );
    expect(result.usage.inputTokens).toBeGreaterThan(20);
    expect(longer.usage.inputTokens).toBe((result.usage.inputTokens ?? 0) + 3);
    expect(longer.usage.outputTokens).toBe(1);
  });

  it('gives identical text for identical seeds, and another text for another seed', async () => {
    const model = await createLlamaCppChatModel(modelOptions);
    const first = await model.doGenerate(question({ maxOutputTokens: 16, temperature: 0.9, seed: 7 }));
    // Something else runs on the sequence in between: the repeat must not depend on it.
    await model.doGenerate(question({ maxOutputTokens: 5, temperature: 0.9, seed: 3 }, 'Who is the patient?'));
    const again = await model.doGenerate(question({ maxOutputTokens: 16, temperature: 0.9, seed: 7 }));
    const other = await model.doGenerate(question({ maxOutputTokens: 16, temperature: 0.9, seed: 8 }));
    expect(again.text).toBe(first.text);
    expect(other.text).not.toBe(first.text);
  });

  it('decodes greedily at temperature 0, whatever the seed', async () => {
    const model = await createLlamaCppChatModel(modelOptions);
    const a = await model.doGenerate(question({ maxOutputTokens: 10, temperature: 0, seed: 1 }));
    const b = await model.doGenerate(question({ maxOutputTokens: 10, temperature: 0, seed: 99 }));
    expect(b.text).toBe(a.text);
  });

  it('stops at a stop sequence, which is not part of the answer', async () => {
    const model = await createLlamaCppChatModel(modelOptions);
    const free = await model.doGenerate(question({ maxOutputTokens: 40, temperature: 0.9, seed: 5 }));
    const stopWord = free.text.trim().split(/\s+/)[3]!;
    const stopped = await model.doGenerate(
      question({ maxOutputTokens: 40, temperature: 0.9, seed: 5, stop: [stopWord] }),
    );
    expect(stopped.finishReason).toBe('stop');
    expect(stopped.text).not.toContain(stopWord);
    expect(free.text.startsWith(stopped.text)).toBe(true);
  });

  it('answers a response schema with JSON that matches it (llama.cpp grammar)', async () => {
    const model = await createLlamaCppChatModel(modelOptions);
    const result = await model.doGenerate({
      ...question({ maxOutputTokens: 40, temperature: 0.7, seed: 2 }),
      responseSchema: {
        name: 'verdict',
        jsonSchema: { type: 'object', properties: { leak: { type: 'boolean' } }, required: ['leak'] },
      },
    });
    const parsed = JSON.parse(result.text) as { leak: unknown };
    expect(typeof parsed.leak).toBe('boolean');
    expect(result.finishReason).toBe('stop');
  });

  it('without maxOutputTokens, a model that never ends its turn stops when the context is full', async () => {
    const model = await createLlamaCppChatModel({ ...modelOptions, contextSize: 256 });
    const result = await model.doGenerate(question({ temperature: 0.8, seed: 4 }));
    expect(result.finishReason).toBe('length');
    const { inputTokens, outputTokens } = result.usage;
    expect((inputTokens ?? 0) + (outputTokens ?? 0)).toBeLessThan(256);
    expect(outputTokens).toBeGreaterThan(200);
  });

  it('refuses a prompt that does not fit the context instead of truncating it', async () => {
    const model = await createLlamaCppChatModel({ ...modelOptions, contextSize: 256 });
    const error = await model.doGenerate(question({}, 'x'.repeat(400))).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('deterministic');
    expect((error as ProviderError).message).toMatch(
      /^the prompt \(\d+ tokens\) does not fit the llamacpp context of 256 tokens: set CONFIDANT_LLAMACPP_CONTEXT_SIZE/,
    );
  });

  it('honours an abort signal, also for a call still waiting for the sequence', async () => {
    const model = await createLlamaCppChatModel(modelOptions);
    const controller = new AbortController();
    const running = model.doGenerate({ ...question({ temperature: 0.8, seed: 1 }), abortSignal: controller.signal });
    const waiting = model.doGenerate({ ...question({ maxOutputTokens: 4 }), abortSignal: controller.signal });
    controller.abort(new Error('stop now'));
    await expect(running).rejects.toThrow();
    await expect(waiting).rejects.toThrow('stop now');
    const after = await model.doGenerate(question({ maxOutputTokens: 3, temperature: 0 }));
    expect(after.usage.outputTokens).toBe(3);
  });

  /** Starts a long call, then a short one; returns which finished first. */
  async function raceLongAgainstShort(model: Awaited<ReturnType<typeof createLlamaCppChatModel>>) {
    const finished: string[] = [];
    const long = model.doGenerate(question({ maxOutputTokens: 300, temperature: 0.9, seed: 1 }));
    const short = model.doGenerate(question({ maxOutputTokens: 2, temperature: 0.9, seed: 2 }));
    await Promise.all([long.then(() => finished.push('long')), short.then(() => finished.push('short'))]);
    return finished;
  }

  it('runs concurrent calls one after another on one sequence, each as if it ran alone', async () => {
    const model = await createLlamaCppChatModel(modelOptions);
    const requests = [1, 2, 3].map((seed) => question({ maxOutputTokens: 8, temperature: 0.9, seed }));
    const alone = [];
    for (const request of requests) alone.push((await model.doGenerate(request)).text);
    const together = await Promise.all(requests.map((request) => model.doGenerate(request)));
    expect(together.map((result) => result.text)).toEqual(alone);
    expect(await raceLongAgainstShort(model)).toEqual(['long', 'short']);
  });

  it('serves several sequences at once when asked to', async () => {
    const model = await createLlamaCppChatModel({ ...modelOptions, sequences: 2 });
    expect(await raceLongAgainstShort(model)).toEqual(['short', 'long']);
    const results = await Promise.all(
      [1, 2, 3, 4].map((seed) => model.doGenerate(question({ maxOutputTokens: 6, temperature: 0.9, seed }))),
    );
    for (const result of results) expect(result.usage.outputTokens).toBe(6);
    expect(results[0]?.providerMetadata?.llamacpp).toMatchObject({ sequences: 2, threads: 1, gpu: false });
  });
});
