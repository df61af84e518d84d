import { describe, expect, it } from 'vitest';
import { causeLabel, causeSource } from './error-cause.js';

describe('causeSource and causeLabel', () => {
  it('names who failed: nothing for a sample, the judge or the scorer otherwise', () => {
    expect(causeSource({ kind: 'sample' })).toBeUndefined();
    expect(causeSource({ kind: 'judge', judge: 'leak@1' })).toBe('judge leak@1');
    expect(causeSource({ kind: 'score', judge: 'confaide-rating@1' })).toBe('scorer confaide-rating@1');
  });

  it('a score cause reads as its message alone, other named errors keep their name', () => {
    expect(causeLabel({ name: 'ScoreError', message: 'no valid rating after 6 attempt(s)' })).toBe(
      'no valid rating after 6 attempt(s)',
    );
    expect(causeLabel({ name: 'JudgeParseError', message: 'no JSON' })).toBe('JudgeParseError: no JSON');
  });
});
