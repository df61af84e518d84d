import { describe, expect, it } from 'vitest';
import type { SampleRecord } from '../spec/run-record.js';
import type { Score } from '../spec/score.js';
import { failureCause, storedScore } from './stored-score.js';

const record = (overrides: Partial<SampleRecord>): SampleRecord => ({
  id: 'a#e1',
  scenarioId: 'a',
  variant: {},
  epoch: 1,
  seed: 0,
  status: 'ok',
  startedAt: '2025-01-01T00:00:00.000Z',
  finishedAt: '2025-01-01T00:00:01.000Z',
  attempt: 1,
  output: null,
  scores: [],
  events: [],
  usage: {},
  ...overrides,
});

const leak: Score = { scorer: 'x@1', target: { name: 'case' }, verdict: 'fail', value: 1 };
const item: Score = { scorer: 'x@1', target: { item: 0 }, verdict: 'pass', value: 0 };

describe('storedScore', () => {
  it('returns the stored score of the scorer, by target when one is given', () => {
    const ok = record({ scores: [item, leak] });
    expect(storedScore({ record: ok, scorer: 'x@1', missing: 'none' })).toBe(item);
    expect(storedScore({ record: ok, scorer: 'x@1', target: { name: 'case' }, missing: 'none' })).toBe(leak);
  });

  it('explains a failed record by its cause, and a record without the score by `missing`', () => {
    const failed = record({
      status: 'error',
      scores: [leak],
      error: { name: 'ProviderError', message: 'm', cause: { name: 'ProviderError', message: 'connection refused' } },
    });
    expect(failureCause(failed)).toBe('connection refused');
    expect(storedScore({ record: failed, scorer: 'x@1', target: { name: 'case' }, missing: 'none' })).toEqual({
      scorer: 'x@1',
      target: { name: 'case' },
      verdict: 'error',
      value: null,
      explanation: 'connection refused',
    });
    expect(failureCause(record({}))).toBeUndefined();
    expect(storedScore({ record: record({}), scorer: 'y@1', missing: 'no y score' })).toEqual({
      scorer: 'y@1',
      verdict: 'error',
      value: null,
      explanation: 'no y score',
    });
  });
});
