import { describe, expect, it } from 'vitest';
import { causeKey, causeLabel } from '../spec/error-cause.js';
import { JudgeParseError, ProviderError } from '../spec/errors.js';
import { causeOfStoredError, errorCauseOf, normaliseErrorMessage } from './error-cause-of.js';

const refused = (port: number) =>
  new ProviderError(`vllm:m: request failed: Cannot connect to API: connect ECONNREFUSED 127.0.0.1:${port}`, {
    kind: 'unreachable',
    endpoint: 'http://127.0.0.1:8000/v1',
    cause: Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:${port}`), { code: 'ECONNREFUSED' }),
  });

describe('errorCauseOf', () => {
  it('puts a refused connection in words, with its endpoint, however deep it sits', () => {
    const wrapped = new Error('agent_a turn 3 failed', { cause: refused(8000) });
    expect(errorCauseOf(wrapped)).toEqual({
      name: 'ProviderError',
      message: 'connection refused',
      endpoint: 'http://127.0.0.1:8000/v1',
    });
    expect(causeLabel(errorCauseOf(wrapped))).toBe('connection refused http://127.0.0.1:8000/v1');
  });

  it('groups failures that differ only in numbers that vary per call', () => {
    const a = new ProviderError('openai:gpt: HTTP 429: Limit 30000, Used 29850, Requested 1200. Retry in 1.5s', {
      kind: 'rate-limit',
      status: 429,
    });
    const b = new ProviderError('openai:gpt: HTTP 429: Limit 30000, Used 29990, Requested 980. Retry in 0.2s', {
      kind: 'rate-limit',
      status: 429,
    });
    expect(causeKey(errorCauseOf(a))).toBe(causeKey(errorCauseOf(b)));
    expect(errorCauseOf(a).message).toBe('openai:gpt: HTTP 429: Limit N, Used N, Requested N. Retry in Ns');
  });

  it('keeps the name of other errors', () => {
    expect(errorCauseOf(new JudgeParseError("no valid 'Answer:' line in the reply"))).toEqual({
      name: 'JudgeParseError',
      message: "no valid 'Answer:' line in the reply",
    });
    expect(errorCauseOf('plain')).toEqual({ name: 'Error', message: 'plain' });
    expect(causeOfStoredError({ name: 'TypeError', message: 'x\n  y' })).toEqual({ name: 'TypeError', message: 'x y' });
  });
});

describe('normaliseErrorMessage', () => {
  it('strips credentials, keys and terminal escapes', () => {
    const text = normaliseErrorMessage(
      'GET https://user:pw@h.example/v1?key=abc failed; Authorization: Bearer abc.def key sk-proj-ABCDEFGHIJKLMNOP \u001b[31mred\u001b[0m',
    );
    expect(text).toBe('GET https://h.example/v1 failed; Authorization: Bearer [redacted] key [redacted] red');
    expect(text).not.toContain('pw');
    expect(text).not.toContain('\u001b');
  });

  it('cuts long messages', () => {
    expect(normaliseErrorMessage('x'.repeat(500))).toHaveLength(240);
  });
});

describe('causeLabel', () => {
  it('adds the name when the message does not carry it, and the endpoint once', () => {
    expect(causeLabel({ name: 'TypeError', message: 'boom' })).toBe('TypeError: boom');
    expect(causeLabel({ name: 'Error', message: 'boom' })).toBe('boom');
    expect(causeLabel({ name: 'ProviderError', message: 'HTTP 401 at http://h/v1', endpoint: 'http://h/v1' })).toBe(
      'HTTP 401 at http://h/v1',
    );
  });
});
