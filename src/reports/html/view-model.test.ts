import { describe, expect, it } from 'vitest';
import { reportHeader } from '../__fixtures__/report-run.js';
import { buildViewModel } from './view-model.js';

const summary = {
  formatVersion: 1 as const,
  runId: 'run-a',
  finishedAt: '2026-11-30T00:00:00.000Z',
  complete: false,
  counts: { planned: 3, success: 1, error: 2, missing: 0 },
  metrics: {},
  usage: {},
  costUsd: 0,
  errorsByName: {},
  errorCauses: [
    {
      kind: 'sample' as const,
      name: 'ProviderError',
      message: 'connection refused',
      endpoint: 'http://127.0.0.1:8000/v1',
      count: 2,
      exampleSampleId: 's1#e1',
    },
    {
      kind: 'judge' as const,
      judge: 'leak@1',
      name: 'JudgeParseError',
      message: 'no verdict',
      count: 1,
      exampleSampleId: 's2#e1',
    },
    {
      kind: 'score' as const,
      judge: 'rating@1',
      name: 'ScoreError',
      message: 'no rating',
      count: 1,
      exampleSampleId: 's3#e1',
    },
  ],
};

describe('buildViewModel', () => {
  it('words each run’s errors by cause once, as Markdown and CSV do', () => {
    const model = buildViewModel({
      runs: [{ header: reportHeader(), summary }],
      definitions: [],
      headline: [],
      mode: 'server',
    });
    expect(model.runs[0]?.errorCauses).toEqual([
      {
        where: 'sample',
        name: 'ProviderError',
        label: 'connection refused http://127.0.0.1:8000/v1',
        count: 2,
        exampleSampleId: 's1#e1',
      },
      {
        where: 'judge leak@1',
        name: 'JudgeParseError',
        label: 'JudgeParseError: no verdict',
        count: 1,
        exampleSampleId: 's2#e1',
      },
      { where: 'scorer rating@1', name: 'ScoreError', label: 'no rating', count: 1, exampleSampleId: 's3#e1' },
    ]);
  });
});
