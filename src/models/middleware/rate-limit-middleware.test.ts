import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../spec/errors.js';
import { AdaptiveLimiter } from '../adaptive-limiter.js';
import { MockChatModel } from '../testing/mock-chat-model.js';
import { wrapChatModel } from '../wrap-chat-model.js';
import { rateLimitMiddleware } from './rate-limit-middleware.js';
import { retryMiddleware } from './retry-middleware.js';

const ask = { messages: [{ role: 'user' as const, content: 'q' }], settings: {} };

describe('rateLimitMiddleware', () => {
  it('bounds concurrency to the limiter and shrinks it on 429', async () => {
    const limiter = new AdaptiveLimiter({ maxConnections: 2 });
    let running = 0;
    let peak = 0;
    const model = new MockChatModel({
      script: async (_request, index) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 2));
        running--;
        return index === 0 ? new ProviderError('429', { kind: 'rate-limit', status: 429 }) : 'ok';
      },
    });
    const wrapped = wrapChatModel({ model, middleware: [rateLimitMiddleware({ limiter })] });
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => wrapped.generate(ask, { role: 'agent' })));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(5);
    expect(peak).toBe(2);
    expect(limiter.limit).toBe(1);
  });

  it('queues the retry of a call ahead of calls that have not started', async () => {
    const limiter = new AdaptiveLimiter({ maxConnections: 1 });
    const order: string[] = [];
    let releaseB!: () => void;
    const bHolds = new Promise<void>((resolve) => {
      releaseB = resolve;
    });
    const model = new MockChatModel({
      script: async (request, index) => {
        const text = String(request.messages[0]?.content);
        order.push(text);
        if (text === 'b') await bHolds;
        return index === 0 ? new ProviderError('429', { kind: 'rate-limit', status: 429, retryAfterMs: 0 }) : text;
      },
    });
    // 'a' is turned away; while its back-off runs, 'b' takes the slot and 'c', 'd' queue behind it.
    const sleep = async () => {
      while (limiter.queued < 2) await new Promise((resolve) => setImmediate(resolve));
      setImmediate(releaseB);
    };
    const wrapped = wrapChatModel({
      model,
      middleware: [retryMiddleware({ sleep }), rateLimitMiddleware({ limiter })],
    });
    const call = (content: string) =>
      wrapped.generate({ messages: [{ role: 'user', content }], settings: {} }, { role: 'agent' });
    const texts = await Promise.all(['a', 'b', 'c', 'd'].map(call));
    expect(texts.map((result) => result.text)).toEqual(['a', 'b', 'c', 'd']);
    // The retry of 'a' queued after 'c' and 'd' and still went first once 'b' gave the slot back.
    expect(order).toEqual(['a', 'b', 'a', 'c', 'd']);
  });
});
