import { describe, expect, it } from 'vitest';
import type { MetricValue } from '../spec/metric-value.js';
import { metricsByGroup } from './metrics-by-group.js';

type Run = { id: string; model: string; tools: string[] };
const runs: Run[] = [
  { id: 'r1', model: 'b', tools: ['mail', 'chat'] },
  { id: 'r2', model: 'a', tools: ['mail'] },
  { id: 'r3', model: 'b', tools: [] },
];
const count = (members: Run[]): Record<string, MetricValue> => ({
  runs: { value: members.length, n: members.length, errors: 0, notApplicable: 0 },
  ids: { value: null, n: 0, errors: 0, notApplicable: 0, reason: members.map((run) => run.id).join(',') },
});

describe('metricsByGroup', () => {
  it('computes the metrics within each value of each breakdown, in first-seen order', () => {
    const groups = metricsByGroup({
      items: runs,
      keys: { model: (run) => run.model, tool: (run) => run.tools },
      metrics: count,
    });
    expect(Object.keys(groups)).toEqual(['model', 'tool']);
    expect(Object.keys(groups.model ?? {})).toEqual(['b', 'a']);
    expect(groups.model?.b?.ids?.reason).toBe('r1,r3');
    expect(groups.model?.a?.runs?.value).toBe(1);
    // A run with two tools counts in both; a run with none is in no tool group.
    expect(Object.keys(groups.tool ?? {})).toEqual(['mail', 'chat']);
    expect(groups.tool?.mail?.ids?.reason).toBe('r1,r2');
    expect(groups.tool?.chat?.ids?.reason).toBe('r1');
  });

  it('gives every breakdown, empty when there is nothing to group', () => {
    expect(metricsByGroup({ items: [], keys: { model: (run: Run) => run.model }, metrics: count })).toEqual({
      model: {},
    });
  });
});
