import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallContext, ModelMiddleware } from '../../spec/chat-model.js';
import { ProviderError } from '../../spec/errors.js';
import { type CallTrace, callTraceOf } from '../call-trace.js';
import { ResponseCache } from '../response-cache.js';
import { MockChatModel } from '../testing/mock-chat-model.js';
import { wrapChatModel } from '../wrap-chat-model.js';
import { cacheMiddleware } from './cache-middleware.js';

const open: ResponseCache[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const cache of open.splice(0)) cache.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function newCache(): ResponseCache {
  const dir = mkdtempSync(join(tmpdir(), 'confidant-cache-mw-'));
  dirs.push(dir);
  const cache = ResponseCache.open({ directory: dir });
  open.push(cache);
  return cache;
}

const ask = (content: string, sampleOrdinal?: number) => ({
  messages: [{ role: 'user' as const, content }],
  settings: {},
  ...(sampleOrdinal === undefined ? {} : { sampleOrdinal }),
});

function traced(traces: CallTrace[]): ModelMiddleware {
  return {
    id: 'peek',
    async wrapGenerate({ request, context, next }) {
      const result = await next(request);
      traces.push({ ...callTraceOf(context) });
      return result;
    },
  };
}

describe('cacheMiddleware', () => {
  it('answers a repeated call from the cache and flags it', async () => {
    const cache = newCache();
    const hits: CallContext[] = [];
    const traces: CallTrace[] = [];
    const model = new MockChatModel({ script: ['first', 'second', 'third'] });
    const wrapped = wrapChatModel({
      model,
      middleware: [
        traced(traces),
        cacheMiddleware({ cache, reads: true, endpointSet: [], onHit: (context) => hits.push(context) }),
      ],
    });
    expect((await wrapped.generate(ask('q'), { role: 'agent', epoch: 1 })).text).toBe('first');
    expect((await wrapped.generate(ask('q'), { role: 'agent', epoch: 1 })).text).toBe('first');
    expect((await wrapped.generate(ask('q', 1), { role: 'agent', epoch: 1 })).text).toBe('second');
    expect((await wrapped.generate(ask('q'), { role: 'agent', epoch: 2 })).text).toBe('third');
    expect(model.calls).toHaveLength(3);
    expect(traces.map((trace) => [trace.cached, trace.attempts])).toEqual([
      [false, 1],
      [true, 0],
      [false, 1],
      [false, 1],
    ]);
    expect(traces[1]?.costUsd).toBe(0);
    expect(hits.map((context) => context.role)).toEqual(['agent']);
  });

  it('with reads off still calls the model and refreshes the entry', async () => {
    const cache = newCache();
    const model = new MockChatModel({ script: ['old', 'new'] });
    const writeOnly = wrapChatModel({ model, middleware: [cacheMiddleware({ cache, reads: false, endpointSet: [] })] });
    const reading = wrapChatModel({ model, middleware: [cacheMiddleware({ cache, reads: true, endpointSet: [] })] });
    expect((await writeOnly.generate(ask('q'), { role: 'agent' })).text).toBe('old');
    expect((await writeOnly.generate(ask('q'), { role: 'agent' })).text).toBe('new');
    expect((await reading.generate(ask('q'), { role: 'agent' })).text).toBe('new');
    expect(model.calls).toHaveLength(2);
  });

  it('never caches errors or error results', async () => {
    const cache = newCache();
    const model = new MockChatModel({
      script: [
        new ProviderError('down', { kind: 'transient' }),
        { text: '', toolCalls: [], finishReason: 'error', usage: { inputTokens: 1, outputTokens: 0 }, warnings: [] },
        'fine',
      ],
    });
    const wrapped = wrapChatModel({ model, middleware: [cacheMiddleware({ cache, reads: true, endpointSet: [] })] });
    await expect(wrapped.generate(ask('q'), { role: 'agent' })).rejects.toThrow('down');
    expect((await wrapped.generate(ask('q'), { role: 'agent' })).finishReason).toBe('error');
    expect((await wrapped.generate(ask('q'), { role: 'agent' })).text).toBe('fine');
    expect(cache.size()).toBe(1);
  });

  it('separates namespaces and endpoint sets', async () => {
    const cache = newCache();
    const model = new MockChatModel({ script: ['a', 'b', 'c'] });
    const make = (namespace: string, endpointSet: string[]) =>
      wrapChatModel({ model, middleware: [cacheMiddleware({ cache, reads: true, endpointSet, namespace })] });
    expect((await make('x', ['http://h/v1']).generate(ask('q'), { role: 'agent' })).text).toBe('a');
    expect((await make('y', ['http://h/v1']).generate(ask('q'), { role: 'agent' })).text).toBe('b');
    expect((await make('x', ['http://i/v1']).generate(ask('q'), { role: 'agent' })).text).toBe('c');
    expect((await make('x', ['http://h/v1']).generate(ask('q'), { role: 'agent' })).text).toBe('a');
  });
});
