import { describe, expect, it } from 'vitest';
import { PlanValidationError } from '../spec/errors.js';
import type { SampleSpec } from '../suites/suite.js';
import { parseShard, selectShard } from './shard.js';

const spec = (id: string): SampleSpec => ({ id, scenarioId: id, variant: {}, epoch: 1, seed: 0 });

describe('parseShard', () => {
  it('parses i/n', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
  });

  it.each(['0/3', '4/3', 'a/b', '3', '1/0', '-1/2', '1.5/2', ''])('rejects %j with the expected form', (text) => {
    expect(() => parseShard(text)).toThrow(PlanValidationError);
    expect(() => parseShard(text)).toThrow(`invalid shard '${text}': write it as i/n with 1 ≤ i ≤ n`);
  });
});

describe('selectShard', () => {
  const samples = ['e', 'b', 'd', 'a', 'c'].map(spec);

  it('keeps ordinals (in id order) congruent to index-1, in the given order', () => {
    expect(selectShard({ samples, index: 1, count: 2 }).map((s) => s.id)).toEqual(['e', 'a', 'c']);
    expect(selectShard({ samples, index: 2, count: 2 }).map((s) => s.id)).toEqual(['b', 'd']);
  });

  it('partitions the samples: every sample is in exactly one shard', () => {
    const shards = [1, 2, 3].map((index) => selectShard({ samples, index, count: 3 }).map((s) => s.id));
    expect(shards).toEqual([['d', 'a'], ['e', 'b'], ['c']]);
    expect(shards.flat().sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('rejects an index outside 1..count', () => {
    expect(() => selectShard({ samples, index: 3, count: 2 })).toThrow(PlanValidationError);
  });
});
