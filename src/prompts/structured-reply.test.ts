import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closingBraceIndex, extractJsonObject, parseStructuredReply } from './structured-reply.js';

describe('extractJsonObject', () => {
  it('reads a bare object', () => {
    expect(extractJsonObject('{"score": 2}')).toEqual({ value: { score: 2 }, source: '{"score": 2}' });
  });

  it('reads an object surrounded by prose', () => {
    expect(extractJsonObject('Here it is: {"score": 1, "why": "ok"} done.')?.value).toEqual({ score: 1, why: 'ok' });
  });

  it('prefers a fenced block over braces mentioned in prose before it', () => {
    const text = 'The format {"score": n} was asked, e.g. {"score": 0}.\n```json\n{"score": 3}\n```';
    expect(extractJsonObject(text)?.value).toEqual({ score: 3 });
  });

  it('reads a plain ``` fence too', () => {
    expect(extractJsonObject('```\n{"a": true}\n```')?.value).toEqual({ a: true });
  });

  it('ignores braces and escaped quotes inside strings', () => {
    const text = 'x {"why": "uses } and { and \\" quotes", "n": {"deep": [1, 2]}} y';
    expect(extractJsonObject(text)?.value).toEqual({ why: 'uses } and { and " quotes', n: { deep: [1, 2] } });
  });

  it('skips an unparsable span and takes the next object', () => {
    expect(extractJsonObject('{not json} then {\'single\': 1} then {"ok": 1}')?.value).toEqual({ ok: 1 });
  });

  it.each([
    ['plain text', 'I think the score is 2.'],
    ['an array of scalars', '[1, 2]'],
    ['an unbalanced object', '{"a": 1'],
    ['an empty string', ''],
  ])('returns null for %s', (_name, text) => {
    expect(extractJsonObject(text)).toBeNull();
  });

  it('takes the object inside an array only if nothing else is found', () => {
    expect(extractJsonObject('[{"a": 1}]')?.value).toEqual({ a: 1 });
  });
});

describe('parseStructuredReply', () => {
  const schema = z.object({ score: z.number().int(), why: z.string() });

  it('returns the validated value and the JSON text it came from', () => {
    expect(parseStructuredReply({ text: 'ok ```json\n{"score": 2, "why": "w"}\n```', schema })).toEqual({
      ok: true,
      value: { score: 2, why: 'w' },
      source: '{"score": 2, "why": "w"}',
    });
  });

  it('says when there is no JSON object', () => {
    expect(parseStructuredReply({ text: 'Score: 2', schema })).toEqual({ ok: false, problem: 'no-json-object' });
  });

  it('lists the zod issues of an object of the wrong shape', () => {
    expect(parseStructuredReply({ text: '{"score": 1.5}', schema })).toEqual({
      ok: false,
      problem: 'wrong-shape',
      issues: [
        'score: Invalid input: expected int, received number',
        'why: Invalid input: expected string, received undefined',
      ],
    });
  });
});

describe('closingBraceIndex', () => {
  it('finds the brace that closes the one at start, skipping braces inside strings', () => {
    const text = 'x {"a": {"b": "}"}} y }';
    expect(closingBraceIndex({ text, start: 2 })).toBe(18);
    expect(closingBraceIndex({ text: '{"open": {', start: 0 })).toBe(-1);
  });
});
