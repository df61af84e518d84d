import { describe, expect, it } from 'vitest';
import { leakScore, reportHeader, reportRecord } from './__fixtures__/report-run.js';
import { perSampleRows } from './per-sample-rows.js';
import { renderPerSampleCsv, renderPerSampleJsonl } from './render-per-sample.js';

const records = [
  reportRecord({
    id: 's1#e1',
    variant: { tier: '3' },
    scores: [
      leakScore(true, 'said "the secret", verbatim'),
      { scorer: 'help@1', target: { name: 'bob' }, verdict: 'pass', value: 2 },
    ],
  }),
  reportRecord({
    id: 's2#e1',
    status: 'error',
    output: null,
    scores: [],
    error: { name: 'ProviderError', message: '=cmd|x' },
  }),
];

describe('per-sample export', () => {
  it('flattens each sample with the run defense and every score', () => {
    const rows = perSampleRows({ header: reportHeader({ defenses: ['privacy-prompt'] }), records });
    expect(rows[0]).toEqual({
      runId: 'run-a',
      id: 's1#e1',
      scenarioId: 's1',
      variant: { tier: '3' },
      epoch: 1,
      defense: 'privacy-prompt',
      status: 'ok',
      attempt: 1,
      error: null,
      scores: [
        {
          key: 'toy-leak-canary@1',
          scorer: 'toy-leak-canary@1',
          target: null,
          verdict: 'fail',
          value: 1,
          explanation: 'said "the secret", verbatim',
        },
        { key: 'help@1[bob]', scorer: 'help@1', target: 'bob', verdict: 'pass', value: 2, explanation: null },
      ],
    });
    expect(rows[1]?.error).toEqual({ name: 'ProviderError', message: '=cmd|x' });
  });

  it('CSV: one column triple per score key, empty where a sample lacks it, formulas defused', () => {
    const csv = renderPerSampleCsv(perSampleRows({ header: reportHeader(), records })).split('\n');
    expect(csv[0]).toBe(
      'run_id,sample_id,scenario_id,variant,epoch,defense,status,attempt,error_name,error_message,toy-leak-canary@1.verdict,toy-leak-canary@1.value,toy-leak-canary@1.explanation,help@1[bob].verdict,help@1[bob].value,help@1[bob].explanation',
    );
    expect(csv[1]).toBe('run-a,s1#e1,s1,tier=3,1,vanilla,ok,1,,,fail,1,"said ""the secret"", verbatim",pass,2,');
    expect(csv[2]).toBe("run-a,s2#e1,s2,,1,vanilla,error,1,ProviderError,'=cmd|x,,,,,,");
    expect(csv).toHaveLength(4);
  });

  it('JSONL: one parseable object per sample', () => {
    const lines = renderPerSampleJsonl(perSampleRows({ header: reportHeader(), records }))
      .trim()
      .split('\n');
    expect(lines.map((line) => JSON.parse(line).id)).toEqual(['s1#e1', 's2#e1']);
  });
});
