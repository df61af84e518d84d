import { describe, expect, it } from 'vitest';
import type { ChatModel, GenerateResult } from '../spec/chat-model.js';
import { ProviderError } from '../spec/errors.js';
import { AdaptiveLimiter } from './adaptive-limiter.js';
import { createEndpointPool } from './endpoint-pool.js';

type Gate = { endpoint: string; release: () => void };

function gatedModel(endpoint: string, gates: Gate[]): ChatModel {
  return {
    specificationVersion: 'confidant-1',
    provider: 'vllm',
    modelId: 'm',
    doGenerate: () =>
      new Promise<GenerateResult>((resolve) => {
        gates.push({
          endpoint,
          release: () =>
            resolve({
              text: endpoint,
              toolCalls: [],
              finishReason: 'stop',
              usage: { inputTokens: 1, outputTokens: 1 },
              warnings: [],
            }),
        });
      }),
  };
}

const request = { messages: [{ role: 'user' as const, content: 'x' }], settings: {} };
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createEndpointPool', () => {
  it('round-robins among idle endpoints and prefers the least busy one', async () => {
    const gates: Gate[] = [];
    const pool = createEndpointPool({
      provider: 'vllm',
      modelId: 'm',
      endpoints: ['http://a/v1', 'http://b/v1', 'http://c/v1'].map((endpoint) => ({
        endpoint,
        model: gatedModel(endpoint, gates),
        limiter: new AdaptiveLimiter({ maxConnections: 8 }),
      })),
    });
    const first = [pool.doGenerate(request), pool.doGenerate(request), pool.doGenerate(request)];
    await tick();
    expect(gates.map((gate) => gate.endpoint)).toEqual(['http://a/v1', 'http://b/v1', 'http://c/v1']);
    expect(pool.inFlight()).toEqual([1, 1, 1]);
    gates[1]!.release();
    expect((await first[1])!.text).toBe('http://b/v1');
    expect(pool.inFlight()).toEqual([1, 0, 1]);
    const next = pool.doGenerate(request);
    await tick();
    expect(gates[3]!.endpoint).toBe('http://b/v1');
    for (const gate of gates) gate.release();
    await Promise.all([...first, next]);
    expect(pool.inFlight()).toEqual([0, 0, 0]);
  });

  it('keeps a separate limiter per endpoint', async () => {
    const limiters = [new AdaptiveLimiter({ maxConnections: 4 }), new AdaptiveLimiter({ maxConnections: 4 })];
    let calls = 0;
    const pool = createEndpointPool({
      provider: 'vllm',
      modelId: 'm',
      endpoints: [
        {
          endpoint: 'http://a/v1',
          limiter: limiters[0]!,
          model: {
            specificationVersion: 'confidant-1',
            provider: 'vllm',
            modelId: 'm',
            doGenerate: () => {
              calls++;
              return Promise.reject(new ProviderError('429', { kind: 'rate-limit', status: 429 }));
            },
          },
        },
        { endpoint: 'http://b/v1', limiter: limiters[1]!, model: gatedModel('http://b/v1', []) },
      ],
    });
    await expect(pool.doGenerate(request)).rejects.toThrow('429');
    expect(calls).toBe(1);
    expect(limiters[0]!.limit).toBe(3);
    expect(limiters[1]!.limit).toBe(4);
  });

  it('needs at least one endpoint', () => {
    expect(() => createEndpointPool({ provider: 'p', modelId: 'm', endpoints: [] })).toThrow(RangeError);
  });
});
