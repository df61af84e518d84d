import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Score, scoreSchema } from '../spec/score.js';
import { checkedScores } from './checked-scores.js';

/** What the schema alone makes of the scores: the parsed copy as JSON (key order included), or the error. */
function bySchema(scores: unknown): string {
  const parsed = z.array(scoreSchema).safeParse(scores);
  return parsed.success ? JSON.stringify(parsed.data) : 'invalid';
}

function byCheck(scores: unknown): string {
  try {
    return JSON.stringify(checkedScores(scores as Score[]));
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return 'invalid';
  }
}

class Boxed {
  scorer = 'boxed@1';
  verdict = 'pass';
  value = 1;
}

const cases: Array<[string, unknown]> = [
  ['a plain score', [{ scorer: 'leak@1', verdict: 'fail', value: 1 }]],
  ['fields out of schema order, unknown ones', [{ value: 0, extra: 1, verdict: 'pass', scorer: 'x@1', label: 'l' }]],
  ['a structured target', [{ scorer: 'x@1', target: { agent: 'a', item: 2 }, verdict: 'pass', value: 0 }]],
  ['a legacy text target', [{ scorer: 'x@1', target: 'agent:a/item-2', verdict: 'pass', value: 0 }]],
  ['a target with a bad field', [{ scorer: 'x@1', target: { agent: true }, verdict: 'pass', value: 0 }]],
  [
    'evidence and judge calls',
    [
      {
        scorer: 'x@1',
        verdict: 'error',
        value: null,
        evidence: [{ eventId: 'e2', quote: 'q', more: 1 }],
        judgeCalls: ['e3'],
      },
    ],
  ],
  ['bad evidence', [{ scorer: 'x@1', verdict: 'pass', value: 0, evidence: [{ eventId: 2, quote: 'q' }] }]],
  ['an undefined optional member', [{ scorer: 'x@1', verdict: 'pass', value: 0, label: undefined }]],
  ['NaN', [{ scorer: 'x@1', verdict: 'pass', value: Number.NaN }]],
  ['Infinity', [{ scorer: 'x@1', verdict: 'pass', value: Number.POSITIVE_INFINITY }]],
  ['an unknown verdict', [{ scorer: 'x@1', verdict: 'maybe', value: 0 }]],
  ['no value', [{ scorer: 'x@1', verdict: 'pass' }]],
  ['a class instance', [new Boxed()]],
  ['a hole', new Array(2).fill({ scorer: 'x@1', verdict: 'pass', value: 0 }, 1)],
  ['an undefined item', [undefined]],
  ['not an array', { scorer: 'x@1', verdict: 'pass', value: 0 }],
  ['a string instead of a score', ['pass']],
  ['judge calls that are not text', [{ scorer: 'x@1', verdict: 'pass', value: 0, judgeCalls: [1] }]],
  ['none', []],
];

describe('checkedScores', () => {
  it.each(cases)('gives what the score schema gives for %s', (_name, scores) => {
    expect(byCheck(scores)).toBe(bySchema(scores));
  });

  it('names the scorer and the field of an invalid score', () => {
    expect(() => checkedScores([{ scorer: 'leak@1', verdict: 'pass', value: 'high' } as unknown as Score])).toThrow(
      /scorer 'leak@1' returned an invalid score: .* at value/,
    );
  });

  it('returns copies, not the scorer objects', () => {
    const score: Score = { scorer: 'x@1', target: { name: 'n' }, verdict: 'pass', value: 0 };
    const [checked] = checkedScores([score]);
    expect(checked).toEqual(score);
    expect(checked).not.toBe(score);
    expect(checked?.target).not.toBe(score.target);
  });
});
