import { describe, expect, it } from 'vitest';
import { testSampleRecord } from '../store/run-store.contract.js';
import type { SampleSpec } from '../suites/suite.js';
import { briefOf, selectPending } from './select-pending.js';

const spec = (id: string): SampleSpec => ({ id, scenarioId: id, variant: {}, epoch: 1, seed: 0 });
const samples = ['a', 'b', 'c'].map(spec);
const records = new Map(
  [
    testSampleRecord({ id: 'a' }),
    testSampleRecord({ id: 'b', status: 'error', attempt: 2, scores: [], error: { name: 'X', message: 'x' } }),
  ].map((record) => [record.id, briefOf(record)]),
);

describe('selectPending', () => {
  it('runs only samples without a record', () => {
    const result = selectPending({ samples, latest: records });
    expect(result.pending.map(({ sample, attempt }) => [sample.id, attempt])).toEqual([['c', 1]]);
    expect({ done: result.done, errors: result.errors }).toEqual({ done: 2, errors: 1 });
  });

  it('with retryErrors, also re-runs errored samples as the next attempt', () => {
    const result = selectPending({ samples, latest: records, retryErrors: true });
    expect(result.pending.map(({ sample, attempt }) => [sample.id, attempt])).toEqual([
      ['b', 3],
      ['c', 1],
    ]);
    expect({ done: result.done, errors: result.errors }).toEqual({ done: 1, errors: 0 });
  });
});
