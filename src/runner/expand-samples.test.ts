import { describe, expect, it } from 'vitest';
import { PlanValidationError } from '../spec/errors.js';
import type { Suite } from '../suites/suite.js';
import { toyLeakScenarios } from '../suites/toy-leak/scenarios.js';
import { toyLeakSuite } from '../suites/toy-leak/suite.js';
import { expandSamples, MAX_PLAN_SAMPLES, sampleId, sampleSeed } from './expand-samples.js';

const base = { suite: toyLeakSuite, scenarios: toyLeakScenarios, options: {}, seed: 0 };

describe('sampleId', () => {
  it('is <scenario>[~k=v,…]#e<epoch> with variant keys sorted', () => {
    expect(sampleId({ scenarioId: 'clinic', variant: {}, epoch: 1 })).toBe('clinic#e1');
    expect(sampleId({ scenarioId: 'clinic', variant: { type: 'b', partner: 'x' }, epoch: 3 })).toBe(
      'clinic~partner=x,type=b#e3',
    );
  });
});

describe('sampleSeed', () => {
  it('is a stable 31-bit integer that depends on the run seed and the id', () => {
    const seed = sampleSeed({ seed: 1, id: 'a#e1' });
    expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 31).toBe(true);
    expect(sampleSeed({ seed: 1, id: 'a#e1' })).toBe(seed);
    expect(sampleSeed({ seed: 2, id: 'a#e1' })).not.toBe(seed);
    expect(sampleSeed({ seed: 1, id: 'a#e2' })).not.toBe(seed);
  });
});

describe('expandSamples', () => {
  it('expands scenario × epoch in order with ids and per-sample seeds', () => {
    const samples = expandSamples({ ...base, epochs: 2 });
    expect(samples.map((s) => s.id)).toEqual([
      'clinic-diagnosis#e1',
      'clinic-diagnosis#e2',
      'payroll-salary#e1',
      'payroll-salary#e2',
      'shelter-address#e1',
      'shelter-address#e2',
      'vault-code#e1',
      'vault-code#e2',
    ]);
    expect(samples[1]).toEqual({
      id: 'clinic-diagnosis#e2',
      scenarioId: 'clinic-diagnosis',
      variant: {},
      epoch: 2,
      seed: sampleSeed({ seed: 0, id: 'clinic-diagnosis#e2' }),
    });
    expect(expandSamples({ ...base, epochs: 2 })).toEqual(samples);
  });

  it('expands variants from the suite', () => {
    const suite: Suite = {
      ...toyLeakSuite,
      dataset: {
        ...toyLeakSuite.dataset,
        variants: (): Array<Record<string, string>> => [{ tone: 'kind' }, { tone: 'curt', asker: 'hr' }],
      },
    };
    const samples = expandSamples({ ...base, suite, scenarios: toyLeakScenarios.slice(0, 1), epochs: 1 });
    expect(samples.map((s) => s.id)).toEqual([
      'clinic-diagnosis~tone=kind#e1',
      'clinic-diagnosis~asker=hr,tone=curt#e1',
    ]);
    expect(samples[1]?.variant).toEqual({ tone: 'curt', asker: 'hr' });
  });

  it('refuses a plan over MAX_PLAN_SAMPLES with its computed size, before building any sample', () => {
    expect(() => expandSamples({ ...base, epochs: 1e9 })).toThrow(
      new PlanValidationError(
        'this plan has 4,000,000,000 samples (4 scenarios, 4 with their variants, × 1,000,000,000 epochs), more than the 1,000,000 a run may hold; lower --epochs or --limit',
      ),
    );
    expect(() => expandSamples({ ...base, epochs: MAX_PLAN_SAMPLES / 4 + 1 })).toThrow(
      /this plan has 1,000,004 samples/,
    );
  });

  it('limits scenarios, not samples', () => {
    const samples = expandSamples({ ...base, epochs: 3, limit: 2 });
    expect(samples).toHaveLength(6);
    expect(new Set(samples.map((s) => s.scenarioId))).toEqual(new Set(['clinic-diagnosis', 'payroll-salary']));
  });

  it('filters by sample ids, keeping expansion order', () => {
    const samples = expandSamples({ ...base, epochs: 2, sampleIds: ['vault-code#e1', 'clinic-diagnosis#e2'] });
    expect(samples.map((s) => s.id)).toEqual(['clinic-diagnosis#e2', 'vault-code#e1']);
  });

  it('rejects unknown sample ids and lists valid ones', () => {
    const run = () => expandSamples({ ...base, epochs: 1, sampleIds: ['clinic#e1'] });
    expect(run).toThrow(PlanValidationError);
    expect(run).toThrow(
      "unknown sample id 'clinic#e1' for suite 'toy-leak'; valid ids look like: clinic-diagnosis#e1, payroll-salary#e1",
    );
  });

  it('rejects duplicate scenario ids and bad epochs or limits', () => {
    const twice = [toyLeakScenarios[0], toyLeakScenarios[0]];
    expect(() => expandSamples({ ...base, scenarios: twice, epochs: 1 })).toThrow(
      "suite 'toy-leak' produced the sample id 'clinic-diagnosis#e1' twice",
    );
    expect(() => expandSamples({ ...base, epochs: 0 })).toThrow(PlanValidationError);
    expect(() => expandSamples({ ...base, epochs: 1, limit: 0 })).toThrow(PlanValidationError);
  });
});
