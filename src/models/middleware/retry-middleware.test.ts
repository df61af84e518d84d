import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../spec/errors.js';
import { callTraceOf } from '../call-trace.js';
import { MockChatModel } from '../testing/mock-chat-model.js';
import { wrapChatModel } from '../wrap-chat-model.js';
import { defaultSleep, retryDelayMs, retryMiddleware } from './retry-middleware.js';

const ask = { messages: [{ role: 'user' as const, content: 'q' }], settings: {} };
const transient = () => new ProviderError('503', { kind: 'transient', status: 503 });

function recorder() {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

describe('retryDelayMs', () => {
  it('doubles from 2 s up to the 60 s cap, jittered into [50 %, 100 %]', () => {
    const top = (retry: number) => retryDelayMs({ retry, retryAfterMs: undefined, random: () => 1 });
    expect([0, 1, 2, 3, 4, 5, 6].map(top)).toEqual([2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    expect(retryDelayMs({ retry: 0, retryAfterMs: undefined, random: () => 0 })).toBe(1000);
  });

  it('honours the server hint, cut to maxRetryAfterMs (default 2 min)', () => {
    expect(retryDelayMs({ retry: 3, retryAfterMs: 1500, random: () => 0 })).toBe(1500);
    expect(retryDelayMs({ retry: 0, retryAfterMs: 10 ** 9 })).toBe(120_000);
    expect(retryDelayMs({ retry: 0, retryAfterMs: 10 ** 9, policy: { maxRetryAfterMs: 5_000 } })).toBe(5_000);
  });

  it('raises a Retry-After of 0 to the floor: 250 ms doubling per retry, jittered', () => {
    const top = (retry: number) => retryDelayMs({ retry, retryAfterMs: 0, random: () => 1 });
    expect([0, 1, 2, 3, 4].map(top)).toEqual([250, 500, 1000, 2000, 4000]);
    expect(retryDelayMs({ retry: 0, retryAfterMs: 0, random: () => 0 })).toBe(125);
    expect(retryDelayMs({ retry: 2, retryAfterMs: 0, random: () => 1, policy: { minDelayMs: 10 } })).toBe(40);
    // A hint above the floor is obeyed as given.
    expect(retryDelayMs({ retry: 0, retryAfterMs: 300, random: () => 1 })).toBe(300);
  });
});

describe('retryMiddleware', () => {
  it('retries transient and rate-limit errors, honouring Retry-After', async () => {
    const { delays, sleep } = recorder();
    const model = new MockChatModel({
      script: [transient(), new ProviderError('429', { kind: 'rate-limit', status: 429, retryAfterMs: 1000 }), 'ok'],
    });
    let attempts = -1;
    const wrapped = wrapChatModel({
      model,
      middleware: [
        {
          id: 'peek',
          async wrapGenerate({ request, context, next }) {
            const result = await next(request);
            attempts = callTraceOf(context).attempts;
            return result;
          },
        },
        retryMiddleware({ sleep, random: () => 1 }),
      ],
    });
    expect((await wrapped.generate(ask, { role: 'agent' })).text).toBe('ok');
    expect(delays).toEqual([2000, 1000]);
    expect(attempts).toBe(3);
  });

  it('does not retry deterministic errors or foreign errors', async () => {
    const { delays, sleep } = recorder();
    const bad = new ProviderError('400', { kind: 'deterministic', status: 400 });
    const model = new MockChatModel({ script: [bad, new Error('bug'), 'never'] });
    const wrapped = wrapChatModel({ model, middleware: [retryMiddleware({ sleep })] });
    await expect(wrapped.generate(ask, { role: 'agent' })).rejects.toBe(bad);
    await expect(wrapped.generate(ask, { role: 'agent' })).rejects.toThrow('bug');
    expect(model.calls).toHaveLength(2);
    expect(delays).toEqual([]);
  });

  it('rethrows the last error after maxRetries retries', async () => {
    const { delays, sleep } = recorder();
    const errors = [transient(), transient(), transient()];
    const model = new MockChatModel({ script: errors });
    const wrapped = wrapChatModel({ model, middleware: [retryMiddleware({ maxRetries: 2, sleep, random: () => 1 })] });
    await expect(wrapped.generate(ask, { role: 'agent' })).rejects.toBe(errors[2]);
    expect(delays).toEqual([2000, 4000]);
  });

  it('makes one attempt with maxRetries 0', async () => {
    const model = new MockChatModel({ script: [transient(), 'ok'] });
    const wrapped = wrapChatModel({ model, middleware: [retryMiddleware({ maxRetries: 0, sleep: async () => {} })] });
    await expect(wrapped.generate(ask, { role: 'agent' })).rejects.toThrow('503');
    expect(model.calls).toHaveLength(1);
  });

  it('stops waiting when the call is aborted', async () => {
    const controller = new AbortController();
    const model = new MockChatModel({ script: [transient(), 'ok'] });
    const wrapped = wrapChatModel({ model, middleware: [retryMiddleware({ sleep: defaultSleep })] });
    const pending = wrapped.generate(ask, { role: 'agent', signal: controller.signal });
    setTimeout(() => controller.abort(new Error('interrupted')), 5);
    await expect(pending).rejects.toThrow('interrupted');
    expect(model.calls).toHaveLength(1);
  });

  it('retries a refused connection twice, briefly, and not at all once the model is known down', async () => {
    const { delays, sleep } = recorder();
    const refused = () => new ProviderError('connection refused', { kind: 'unreachable' });
    const model = new MockChatModel({ script: [refused(), refused(), refused(), refused(), 'ok', refused(), 'ok'] });
    const wrapped = wrapChatModel({ model, middleware: [retryMiddleware({ sleep, random: () => 1 })] });
    await expect(wrapped.generate(ask, { role: 'agent' })).rejects.toThrow('connection refused');
    expect(delays).toEqual([500, 1000]);
    expect(model.calls).toHaveLength(3);
    // The next call fails on its first attempt: no waiting on a server that is down.
    await expect(wrapped.generate(ask, { role: 'agent' })).rejects.toThrow('connection refused');
    expect(model.calls).toHaveLength(4);
    expect(delays).toEqual([500, 1000]);
    // A success clears it: the following refusal is retried again.
    expect((await wrapped.generate(ask, { role: 'agent' })).text).toBe('ok');
    expect((await wrapped.generate(ask, { role: 'agent' })).text).toBe('ok');
    expect(delays).toEqual([500, 1000, 500]);
  });

  it('never retries an unreachable server more often than maxRetries', async () => {
    const { delays, sleep } = recorder();
    const model = new MockChatModel({ script: [new ProviderError('refused', { kind: 'unreachable' }), 'ok'] });
    const wrapped = wrapChatModel({ model, middleware: [retryMiddleware({ maxRetries: 0, sleep })] });
    await expect(wrapped.generate(ask, { role: 'agent' })).rejects.toThrow('refused');
    expect(delays).toEqual([]);
  });

  it('rejects a negative maxRetries', () => {
    expect(() => retryMiddleware({ maxRetries: -1 })).toThrow(RangeError);
  });
});
