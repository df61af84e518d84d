import { describe, expect, it } from 'vitest';
import { ConfidantError, ProviderError } from '../spec/errors.js';
import {
  isProviderError,
  isRetryableProviderError,
  kindOfStatus,
  parseRetryAfterMs,
  tagEndpointErrors,
  toProviderError,
} from './provider-error.js';
import { MockChatModel } from './testing/mock-chat-model.js';

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('prefers retry-after-ms', () => {
    expect(parseRetryAfterMs({ 'retry-after-ms': '250', 'retry-after': '9' }, now)).toBe(250);
  });

  it('reads seconds, fractional seconds and HTTP dates', () => {
    expect(parseRetryAfterMs({ 'Retry-After': '2' }, now)).toBe(2000);
    expect(parseRetryAfterMs({ 'retry-after': '0.5' }, now)).toBe(500);
    expect(parseRetryAfterMs({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }, now)).toBe(30_000);
    expect(parseRetryAfterMs({ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }, now)).toBe(0);
  });

  it('ignores absent or garbage values', () => {
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
    expect(parseRetryAfterMs({}, now)).toBeUndefined();
    expect(parseRetryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(parseRetryAfterMs({ 'retry-after-ms': 'x', 'retry-after': '1' }, now)).toBe(1000);
  });
});

describe('kindOfStatus', () => {
  it('classifies statuses', () => {
    expect(kindOfStatus(429)).toBe('rate-limit');
    expect(kindOfStatus(500)).toBe('transient');
    expect(kindOfStatus(503)).toBe('transient');
    expect(kindOfStatus(408)).toBe('transient');
    expect(kindOfStatus(400)).toBe('deterministic');
    expect(kindOfStatus(401)).toBe('deterministic');
    expect(kindOfStatus(404)).toBe('deterministic');
    expect(kindOfStatus(200)).toBe('transient');
    expect(kindOfStatus(302)).toBe('deterministic');
    expect(kindOfStatus(undefined)).toBe('transient');
  });
});

describe('isProviderError', () => {
  it('recognises provider errors only', () => {
    const error = new ProviderError('x', { kind: 'transient' });
    expect(isProviderError(error)).toBe(true);
    expect(isRetryableProviderError(error)).toBe(true);
    expect(isRetryableProviderError(new ProviderError('x', { kind: 'deterministic' }))).toBe(false);
    expect(isProviderError(new ConfidantError('x'))).toBe(false);
    expect(isProviderError(new Error('x'))).toBe(false);
  });
});

describe('toProviderError on network failures', () => {
  const refused = () =>
    new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
    });

  it('calls a refused connection or an unknown host unreachable, a reset transient', () => {
    expect(toProviderError(refused(), { provider: 'vllm', modelId: 'm' }).kind).toBe('unreachable');
    const unknownHost = new TypeError('fetch failed', {
      cause: Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' }),
    });
    expect(toProviderError(unknownHost, { provider: 'vllm', modelId: 'm' }).kind).toBe('unreachable');
    const reset = new TypeError('fetch failed', {
      cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
    });
    expect(toProviderError(reset, { provider: 'vllm', modelId: 'm' }).kind).toBe('transient');
  });
});

describe('tagEndpointErrors', () => {
  it('names the endpoint on provider errors and leaves other errors alone', async () => {
    const fault = new ProviderError('vllm:m: HTTP 503: busy', { kind: 'transient', status: 503, retryAfterMs: 5 });
    const bug = new Error('bug');
    const model = tagEndpointErrors({
      model: new MockChatModel({ script: [fault, bug] }),
      endpoint: 'http://127.0.0.1:8000/v1',
    });
    const tagged = await model.doGenerate({ messages: [], settings: {} }).catch((error: unknown) => error);
    expect(tagged).toBeInstanceOf(ProviderError);
    expect(tagged).toMatchObject({
      endpoint: 'http://127.0.0.1:8000/v1',
      kind: 'transient',
      status: 503,
      retryAfterMs: 5,
      message: fault.message,
    });
    await expect(model.doGenerate({ messages: [], settings: {} })).rejects.toBe(bug);
  });
});
