import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineSuite } from '../suites/suite.js';
import { findPreset, withPreset } from './with-preset.js';

const suite = defineSuite<never, null, Record<string, unknown>>({
  id: 'demo-suite',
  version: 1,
  description: 'a suite with one preset',
  taskKind: 'free-text-answer',
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
  dataset: { name: 'none', files: () => [], load: async () => [], id: () => '' },
  solve: async () => ({ output: null }),
  scorers: [],
  metrics: { compute: () => ({ metrics: {} }), definitions: [] },
});

describe('withPreset', () => {
  it('changes nothing without a preset', () => {
    expect(withPreset({ suite, flags: { epochs: 2, model: ['x'] } })).toEqual({ epochs: 2, model: ['x'] });
  });

  it('lays options under the given ones and adds models when none are bound', () => {
    const flags = withPreset({ suite, flags: { preset: 'offline', set: { judge: 'llm' } } });
    expect(flags.set).toEqual({ split: 'starter', judge: 'llm' });
    expect(flags.model).toEqual(['agent=reference:oracle', 'judge=mock:judge-safe']);
  });

  it('adds only the roles left unbound; any agent seat (also through --grid) counts as the agent', () => {
    expect(withPreset({ suite, flags: { preset: 'offline', model: ['judge=mock:judge-leak'] } }).model).toEqual([
      'judge=mock:judge-leak',
      'agent=reference:oracle',
    ]);
    expect(withPreset({ suite, flags: { preset: 'offline', model: ['agent-b=reference:naive'] } }).model).toEqual([
      'agent-b=reference:naive',
      'judge=mock:judge-safe',
    ]);
    expect(withPreset({ suite, flags: { preset: 'offline', grid: ['agent-a=reference:naive'] } }).model).toEqual([
      'judge=mock:judge-safe',
    ]);
  });

  it('names the suite presets when the id is unknown', () => {
    expect(() => findPreset({ suite, id: 'fast' })).toThrow(
      "suite demo-suite has no preset 'fast': use one of offline (see `confidant list presets demo-suite`)",
    );
    expect(() => withPreset({ suite, flags: { preset: 'fast' } })).toThrow("has no preset 'fast'");
  });
});
