import { describe, expect, it } from 'vitest';
import type { MetricValue } from '../../spec/metric-value.js';
import { pacGridTable } from './grid-table.js';

const value = (fraction: number | null, n = 2): MetricValue => ({ value: fraction, n, errors: 0, notApplicable: 0 });
const cell = (ts: number, ps: number | null, joint: number, n = 2) => ({
  ts: value(ts, n),
  ps: value(ps, n),
  acc_joint: value(joint, n),
});

describe('pacGridTable', () => {
  it('lays out initiator rows × partner columns with TS / PS / Acc_joint and the initiator mean', () => {
    const table = pacGridTable({
      groups: {
        pair: {
          'openai:gpt-5.1~openai:gpt-5.1': cell(0.898, 0.81, 0.56),
          'openai:gpt-5.1~vllm:qwen3~32b': cell(0.886, 0.835, 0.54),
          'vllm:qwen3~32b~openai:gpt-5.1': cell(0.5, null, 0, 1),
        },
        initiator: {
          'openai:gpt-5.1': cell(0.892, 0.8225, 0.55),
          'vllm:qwen3~32b': cell(0.5, null, 0),
        },
      },
    });
    expect(table.split('\n')).toEqual([
      'Cells: TS / PS / Acc_joint (%), n = runs behind Acc_joint. Rows: initiator (Agent A); columns: partner.',
      '',
      '| Initiator \\ Partner | openai:gpt-5.1 | vllm:qwen3~32b | Mean over partners |',
      '|---|---|---|---|',
      '| openai:gpt-5.1 | 89.8 / 81.0 / 56.0 (n=2) | 88.6 / 83.5 / 54.0 (n=2) | 89.2 / 82.3 / 55.0 |',
      '| vllm:qwen3~32b | 50.0 / – / 0.0 (n=1) |  | 50.0 / – / 0.0 |',
      '',
    ]);
  });

  it('is empty without pair groups', () => {
    expect(pacGridTable({})).toBe('');
    expect(pacGridTable({ groups: { pair: {} } })).toBe('');
  });
});
