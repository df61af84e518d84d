import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineSuite } from '../suites/suite.js';
import { findPreset, withPreset } from './with-preset.js';

const suite = defineSuite<never, null, Record<string, unknown>>({
  id: 'demo-suite',
  version: 1,
  description: 'a suite with one preset',
  taskKind: 'free-text-answer',
  dataset: 'none',
  options: z.object({ split: z.string().optional(), judge: z.string().optional() }),
  presets: [
    {
      id: 'offline',
      description: 'no model',
      options: { split: 'starter', judge: 'markers' },
      models: [
        { role: 'agent', spec: 'reference:oracle' },
        { role: 'judge', spec: 'mock:judge-safe' },
      ],
    },
  ],
  roles: () => ({ required: [], optional: [] }),
  datasetFiles: () => [],
  loadScenarios: async () => [],
  scenarioId: () => '',
  runSample: async () => ({ output: null }),
  score: async () => [],
  judges: () => [],
  metrics: () => ({ metrics: {} }),
  metricDefinitions: [],
});

describe('withPreset', () => {
  it('changes nothing without a preset', () => {
    expect(withPreset({ suite, presetId: undefined, config: { epochs: 2 }, flagModels: ['x'] })).toEqual({
      config: { epochs: 2 },
      flagModels: ['x'],
    });
  });

  it('lays options under the config and adds models to the config when the command line gives none', () => {
    const { config, flagModels } = withPreset({
      suite,
      presetId: 'offline',
      config: { set: { judge: 'llm' } },
      flagModels: undefined,
    });
    expect(config.set).toEqual({ split: 'starter', judge: 'llm' });
    expect(config.model).toEqual(['agent=reference:oracle', 'judge=mock:judge-safe']);
    expect(flagModels).toBeUndefined();
  });

  it('adds only the roles the command line leaves unbound; any agent seat counts as the agent', () => {
    expect(
      withPreset({ suite, presetId: 'offline', config: {}, flagModels: ['judge=mock:judge-leak'] }).flagModels,
    ).toEqual(['judge=mock:judge-leak', 'agent=reference:oracle']);
    expect(
      withPreset({ suite, presetId: 'offline', config: {}, flagModels: ['agent-b=reference:naive'] }).flagModels,
    ).toEqual(['agent-b=reference:naive', 'judge=mock:judge-safe']);
    expect(
      withPreset({ suite, presetId: 'offline', config: { model: 'reference:naive' }, flagModels: [] }).config.model,
    ).toEqual(['reference:naive', 'judge=mock:judge-safe']);
  });

  it('names the suite presets when the id is unknown', () => {
    expect(() => findPreset({ suite, id: 'fast' })).toThrow(
      "suite demo-suite has no preset 'fast': use one of offline (see `confidant list presets demo-suite`)",
    );
  });
});
