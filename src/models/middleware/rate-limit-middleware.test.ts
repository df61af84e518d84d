import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../spec/errors.js';
import { AdaptiveLimiter } from '../adaptive-limiter.js';
import { MockChatModel } from '../testing/mock-chat-model.js';
import { wrapChatModel } from '../wrap-chat-model.js';
import { rateLimitMiddleware } from './rate-limit-middleware.js';

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
});
