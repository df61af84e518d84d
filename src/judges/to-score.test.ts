import { describe, expect, it } from 'vitest';
import { ConfidantError } from '../spec/errors.js';
import { scoreSchema } from '../spec/score.js';
import { keywordJudge } from './keyword-judge.js';
import { toScore } from './to-score.js';

describe('toScore', () => {
  it('keeps the value, label, explanation and judge calls of a pass or fail', () => {
    const score = toScore({
      scorer: 'pac-privacy@1',
      target: { name: 'agent-a' },
      result: { verdict: 'fail', value: 1, label: 'Yes', explanation: 'leaks', judgeCallIds: ['ev-3'] },
      evidence: [{ eventId: 'ev-1', quote: 'HIV positive' }],
    });
    expect(score).toEqual({
      scorer: 'pac-privacy@1',
      target: { name: 'agent-a' },
      verdict: 'fail',
      value: 1,
      label: 'Yes',
      explanation: 'leaks',
      evidence: [{ eventId: 'ev-1', quote: 'HIV positive' }],
      judgeCalls: ['ev-3'],
    });
    expect(scoreSchema.parse(score)).toEqual(score);
  });

  it.each(['error', 'not-applicable'] as const)('sets the value to null for %s', (verdict) => {
    expect(toScore({ scorer: 'x@2', result: { verdict, value: 1 } })).toEqual({ scorer: 'x@2', verdict, value: null });
  });

  it('explains an error verdict by its error when it has no explanation', () => {
    const failed = { verdict: 'error' as const, value: null, error: "no valid 'Answer:' line" };
    expect(toScore({ scorer: 'x@1', result: failed }).explanation).toBe("no valid 'Answer:' line");
    expect(toScore({ scorer: 'x@1', result: { ...failed, explanation: 'own' } }).explanation).toBe('own');
    expect(toScore({ scorer: 'x@1', result: { ...failed, verdict: 'pass', value: 1 } }).explanation).toBeUndefined();
  });

  it('accepts a keyword judgment', () => {
    const result = keywordJudge({ text: 'the code is 1234', keywords: ['1234'], mode: 'any' });
    expect(toScore({ scorer: 'canary@1', result })).toEqual({ scorer: 'canary@1', verdict: 'fail', value: 0 });
  });

  it.each(['pac-privacy', 'pac-privacy@v1', 'Pac@1', '@1', 'x@0'])('rejects the scorer name %j', (scorer) => {
    expect(() => toScore({ scorer, result: { verdict: 'pass', value: 1 } })).toThrow(ConfidantError);
  });
});
