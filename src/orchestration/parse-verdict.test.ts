import { describe, expect, it } from 'vitest';
import { parseVerdict } from './parse-verdict.js';

describe('parseVerdict', () => {
  it.each([
    ['Looks fine.\nVerdict: APPROVE', 'approve'],
    ['Issue: leaks the diagnosis.\nVerdict: REQUEST CHANGES', 'request-changes'],
    ['**Verdict:** approve', 'approve'],
    ['- verdict - request_changes', 'request-changes'],
    ['Answer with "Verdict: APPROVE" or not.\nVerdict: REQUEST CHANGES', 'request-changes'],
    ['Verdict: APPROVE\nOn reflection:\nVerdict: REQUEST CHANGES', 'request-changes'],
    ['I approve of this.', 'unclear'],
    ['Verdict: maybe', 'unclear'],
    ['', 'unclear'],
  ])('%j → %s', (text, verdict) => {
    expect(parseVerdict(text)).toBe(verdict);
  });
});
