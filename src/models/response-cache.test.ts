import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../spec/chat-model.js';
import { canonicalJson, ResponseCache, responseCacheKey } from './response-cache.js';
import { textResult } from './testing/mock-chat-model.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'confidant-cache-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const request: GenerateRequest = { messages: [{ role: 'user', content: 'hi' }], settings: { temperature: 0, seed: 1 } };
const base = { provider: 'vllm', modelId: 'm', endpointSet: ['http://a/v1'], request, epoch: 1, namespace: '' };

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[{"y":2,"z":1}]},"b":1}');
  });
});

describe('responseCacheKey', () => {
  it('is a stable hex SHA-256 independent of key order', () => {
    const key = responseCacheKey(base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(
      responseCacheKey({ ...base, request: { settings: { seed: 1, temperature: 0 }, messages: request.messages } }),
    ).toBe(key);
  });

  it('ignores the abort signal, endpoint order and endpoint credentials', () => {
    const key = responseCacheKey({ ...base, endpointSet: ['http://b/v1', 'http://a/v1'] });
    expect(responseCacheKey({ ...base, endpointSet: ['http://a/v1', 'http://u:secret@b/v1?key=1'] })).toBe(key);
    expect(responseCacheKey({ ...base, request: { ...request, abortSignal: new AbortController().signal } })).toBe(
      responseCacheKey(base),
    );
  });

  it('changes with every identifying field', () => {
    const key = responseCacheKey(base);
    const variants = [
      { ...base, provider: 'ollama' },
      { ...base, modelId: 'n' },
      { ...base, endpointSet: ['http://c/v1'] },
      { ...base, epoch: 2 },
      { ...base, namespace: 'judge' },
      { ...base, request: { ...request, sampleOrdinal: 1 } },
      { ...base, request: { ...request, settings: { temperature: 0.5, seed: 1 } } },
      { ...base, request: { ...request, toolChoice: 'none' as const } },
      { ...base, request: { ...request, tools: [{ name: 't', description: 'd', inputSchema: {} }] } },
      { ...base, request: { ...request, responseSchema: { name: 's', jsonSchema: {} } } },
      { ...base, request: { ...request, messages: [{ role: 'user' as const, content: 'hi!' }] } },
    ];
    const keys = new Set(variants.map(responseCacheKey));
    expect(keys.size).toBe(variants.length);
    expect(keys.has(key)).toBe(false);
  });
});

describe('ResponseCache', () => {
  it('stores and reads results across reopenings, in WAL mode', () => {
    const directory = tempDir();
    const cache = ResponseCache.open({ directory });
    expect(cache.get('k')).toBeUndefined();
    cache.set('k', textResult('stored', { inputTokens: 1, outputTokens: 2 }));
    cache.close();
    const reopened = ResponseCache.open({ directory });
    expect(reopened.get('k')).toEqual(textResult('stored', { inputTokens: 1, outputTokens: 2 }));
    expect(reopened.size()).toBe(1);
    expect(reopened.path).toBe(join(directory, 'responses.sqlite'));
    reopened.close();
  });

  it('treats entries older than the TTL as misses', () => {
    let now = 1_000;
    const cache = ResponseCache.open({ directory: tempDir(), ttlMs: 500, now: () => now });
    cache.set('k', textResult('x'));
    now += 500;
    expect(cache.get('k')?.text).toBe('x');
    now += 1;
    expect(cache.get('k')).toBeUndefined();
    cache.close();
  });
});
