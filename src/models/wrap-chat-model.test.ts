import { describe, expect, it } from 'vitest';
import type { ModelMiddleware } from '../spec/chat-model.js';
import { callTraceOf } from './call-trace.js';
import { MockChatModel } from './testing/mock-chat-model.js';
import { wrapChatModel } from './wrap-chat-model.js';

const ask = { messages: [{ role: 'user' as const, content: 'q' }], settings: {} };

function tracing(id: string, log: string[]): ModelMiddleware {
  return {
    id,
    async wrapGenerate({ request, next }) {
      log.push(`${id}>`);
      const result = await next({
        ...request,
        settings: { ...request.settings, seed: (request.settings.seed ?? 0) + 1 },
      });
      log.push(`<${id}`);
      return result;
    },
  };
}

describe('wrapChatModel', () => {
  it('runs middleware outermost first and lets each rewrite the request', async () => {
    const log: string[] = [];
    const model = new MockChatModel({ script: 'a' });
    const wrapped = wrapChatModel({ model, middleware: [tracing('outer', log), tracing('inner', log)] });
    const result = await wrapped.generate(ask, { role: 'agent' });
    expect(result.text).toBe('a');
    expect(log).toEqual(['outer>', 'inner>', '<inner', '<outer']);
    expect(model.calls[0]?.settings.seed).toBe(2);
    expect([wrapped.provider, wrapped.modelId]).toEqual(['mock', 'scripted']);
  });

  it('gives each call its own trace and counts adapter attempts', async () => {
    const seen: number[] = [];
    const model = new MockChatModel({ script: 'a' });
    const twice: ModelMiddleware = {
      id: 'twice',
      async wrapGenerate({ request, next }) {
        await next(request);
        return next(request);
      },
    };
    const observe: ModelMiddleware = {
      id: 'observe',
      async wrapGenerate({ request, context, next }) {
        const result = await next(request);
        seen.push(callTraceOf(context).attempts);
        return result;
      },
    };
    const wrapped = wrapChatModel({ model, middleware: [observe, twice] });
    const context = { role: 'agent' };
    await wrapped.generate(ask, context);
    await wrapped.generate(ask, context);
    expect(seen).toEqual([2, 2]);
    expect(model.calls).toHaveLength(4);
  });

  it('with no middleware calls the adapter directly', async () => {
    const wrapped = wrapChatModel({ model: new MockChatModel({ script: 'plain' }), middleware: [] });
    expect((await wrapped.generate(ask, { role: 'agent' })).text).toBe('plain');
  });
});
