import { describe, expect, it } from 'vitest';
import { runPlanSchema } from '../spec/run-plan.js';
import { canonicalJson, planHash, sha256Hex } from './plan-hash.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined properties like JSON.stringify', () => {
    const value = { b: 1, a: { d: [1, { f: 2, e: undefined }, undefined], c: null }, when: new Date(0) };
    expect(canonicalJson(value)).toBe('{"a":{"c":null,"d":[1,{"f":2},null]},"b":1,"when":"1970-01-01T00:00:00.000Z"}');
    expect(canonicalJson({ y: 1, x: 2 })).toBe(canonicalJson({ x: 2, y: 1 }));
    expect(canonicalJson(undefined)).toBe('null');
  });
});

describe('planHash', () => {
  const plan = runPlanSchema.parse({ suite: 'toy-leak', seed: 3, models: [{ role: 'agent', spec: 'mock:x' }] });

  it('is the sha256 of the canonical plan identity', () => {
    expect(planHash(plan)).toMatch(/^[0-9a-f]{64}$/);
    expect(planHash(plan)).toBe(
      sha256Hex(
        '{"defenses":[],"epochs":1,"limit":null,"modelSettings":{},"models":[{"role":"agent","spec":"mock:x"}],"sampleIds":null,"seed":3,"suite":"toy-leak","suiteOptions":{}}',
      ),
    );
  });

  it('ignores how a plan is executed and changes with what it measures', () => {
    const executed = { ...plan, shard: { index: 2, count: 3 }, concurrency: 16, cache: false, maxCostUsd: 1 };
    expect(planHash(executed)).toBe(planHash(plan));
    expect(planHash({ ...plan, seed: 4 })).not.toBe(planHash(plan));
    expect(planHash({ ...plan, epochs: 2 })).not.toBe(planHash(plan));
  });
});
