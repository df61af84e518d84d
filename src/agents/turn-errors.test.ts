import { describe, expect, it } from 'vitest';
import { ConfidantError } from '../spec/errors.js';
import { EmptyReplyError, TurnLimitError } from './turn-errors.js';

describe('turn errors', () => {
  it('are operator errors (not user errors) with stable names', () => {
    const limit = new TurnLimitError('too many calls', { limit: 10 });
    const empty = new EmptyReplyError('nothing to say');
    expect(ConfidantError.isInstance(limit)).toBe(true);
    expect(ConfidantError.isInstance(empty)).toBe(true);
    expect([limit.name, empty.name]).toEqual(['TurnLimitError', 'EmptyReplyError']);
    expect([limit.userError, empty.userError]).toEqual([false, false]);
    expect(limit.limit).toBe(10);
  });
});
