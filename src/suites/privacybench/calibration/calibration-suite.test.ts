import { describe, expect, it } from 'vitest';
import { expandSamples, runEvaluation } from '../../../runner/index.js';
import { scriptedModelRoles } from '../../../runner/testing/scripted-model-roles.js';
import { testRunHeader } from '../../../runner/testing/test-run-header.js';
import { InMemoryRunStore } from '../../../store/index.js';
import { loadSuites } from '../../registry.js';
import { suiteJudges } from '../../suite.js';
import { privacybenchCalibrationSuite as suite } from './calibration-suite.js';
import type { SecretDetectionOutput } from './secret-detection-task.js';

describe('privacybench-calibration suite', () => {
  it('is registered and declares its roles, judge and the starter community as built-in data', async () => {
    expect(await loadSuites()).toContain(suite);
    const defaults = suite.options.parse({});
    expect(defaults).toEqual({ community: 'starter', detectors: 'agent' });
    expect(suite.roles(defaults)).toEqual({ required: ['agent'], optional: ['judge'] });
    expect(suite.roles(suite.options.parse({ detectors: 'judges' }))).toEqual({ required: ['judge'], optional: [] });
    expect(suiteJudges({ scorers: suite.scorers, options: defaults }).map((judge) => judge.id)).toEqual([
      'privacybench-secret-detection',
    ]);
    expect(suite.dataset.files({ dataDir: '/d', options: defaults })).toEqual([]);
    expect(() => suite.options.parse({ task: 'secret-detection' })).toThrow();
  });

  it('calibrates the model under test and each judge: exact confusion counts through the runner', async () => {
    // The agent says Yes to everything (recall 1, precision = share of positives); the judge says
    // No to everything (recall 0); neither reply is ever coerced when it does not parse.
    const options = suite.options.parse({});
    const scenarios = await suite.dataset.load({ dataDir: '/no/data/dir/needed', options });
    const samples = expandSamples({ suite, scenarios, options, epochs: 1, seed: 0 });
    const store = new InMemoryRunStore();
    await store.writeHeader(testRunHeader({ plan: { suite: suite.id }, sampleIds: samples.map((s) => s.id) }));
    const { factory } = scriptedModelRoles({
      respond: (call) => (call.role === 'agent' ? 'Answer: Yes' : 'Answer: No'),
      roles: ['agent', 'judge'],
    });
    const { summary } = await runEvaluation({ suite, options, scenarios, samples, store, models: factory });
    const records = await store.readSamples();
    const positives = records.filter((record) => (record.output as SecretDetectionOutput).label === 'secret').length;
    const negatives = records.length - positives;
    expect(positives).toBeGreaterThan(0);
    expect(negatives).toBeGreaterThan(0);
    expect(summary.metrics.tp?.value).toBe(positives);
    expect(summary.metrics.fp?.value).toBe(negatives);
    expect(summary.metrics.fn?.value).toBe(0);
    expect(summary.metrics.recall?.value).toBe(1);
    expect(summary.metrics.precision?.value).toBeCloseTo(positives / records.length, 12);
    const judgeGroup = Object.entries(summary.groups?.detector ?? {}).find(([id]) => id !== 'agent')?.[1];
    expect(judgeGroup?.recall?.value).toBe(0);
    expect(judgeGroup?.tn?.value).toBe(negatives);
  });
});
