import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../spec/run-record.js';
import { runOutcome } from './run-outcome.js';

const summary = ({
  errored = 0,
  judgeErrored = 0,
  success = 10,
}: {
  errored?: number;
  judgeErrored?: number;
  success?: number;
}): RunSummary => ({
  formatVersion: 1,
  runId: 'r',
  finishedAt: '2025-01-01T00:00:00.000Z',
  complete: true,
  counts: { planned: success + errored, success, error: errored, missing: 0 },
  metrics: {},
  usage: {},
  costUsd: 0,
  errorsByName: {},
  failures: {
    errored,
    judgeErrored,
    judgeErrors: judgeErrored,
    rate: (errored + judgeErrored) / (success + errored),
  },
  errorCauses:
    errored + judgeErrored === 0
      ? []
      : [
          {
            kind: 'sample',
            name: 'ProviderError',
            message: 'connection refused',
            endpoint: 'http://h/v1',
            count: errored + judgeErrored,
            exampleSampleId: 'a#e1',
          },
        ],
  judges: [],
});
const outcome = (options: Partial<Parameters<typeof runOutcome>[0]> & { summary: RunSummary }) =>
  runOutcome({
    stopped: undefined,
    failFast: undefined,
    location: 'runs/x',
    maxErrorRate: 0.2,
    failOnError: false,
    ...options,
  });

describe('runOutcome', () => {
  it('exits 0 with no extra line when nothing failed', () => {
    expect(outcome({ summary: summary({}) })).toEqual({
      lines: ['samples: 10 ok, 0 errored, 0 missing of 10'],
      exitCode: 0,
    });
  });

  it('exits 0 with one warning under the threshold, 4 with --fail-on-error', () => {
    const result = outcome({ summary: summary({ success: 9, judgeErrored: 1 }) });
    expect(result.exitCode).toBe(0);
    expect(result.lines.at(-1)).toBe(
      'warning: 1 of 9 samples failed (11.1%: 0 errored, 1 with a judge error); most common cause: connection refused http://h/v1 ×1, within --max-error-rate 20%; redo them with: confidant resume runs/x --retry-errors',
    );
    expect(outcome({ summary: summary({ success: 9, judgeErrored: 1 }), failOnError: true }).exitCode).toBe(4);
  });

  it('exits 4 over the threshold and says how to continue', () => {
    const result = outcome({ summary: summary({ success: 6, errored: 4 }) });
    expect(result.exitCode).toBe(4);
    expect(result.lines).toContain('errors 4: connection refused http://h/v1 ×4');
    expect(result.lines.at(-1)).toMatch(
      /^run failed: 4 of 10 samples failed \(40%: 4 errored, 0 with a judge error\).*over --max-error-rate 20%\. Fix the cause, then redo them with: confidant resume runs\/x --retry-errors$/,
    );
  });

  it('exits 3 when stopped early, with the exact resume command', () => {
    const failFast = {
      rule: 'consecutive' as const,
      cause: undefined,
      failed: 5,
      finished: 5,
      message: 'the first 5 samples failed with the same cause: connection refused http://h/v1',
    };
    const result = outcome({ summary: summary({ success: 0, errored: 5 }), stopped: 'fail-fast', failFast });
    expect(result.exitCode).toBe(3);
    expect(result.lines.at(-1)).toBe(
      'run stopped early: the first 5 samples failed with the same cause: connection refused http://h/v1. Fix the cause, then continue with: confidant resume runs/x --retry-errors',
    );
    expect(outcome({ summary: summary({}), stopped: 'budget' })).toMatchObject({ exitCode: 3 });
  });

  it('counts samples a scorer could not score as failed: exit 4 over the threshold, named in the line', () => {
    const base = summary({ success: 10 });
    const scored: RunSummary = {
      ...base,
      failures: { errored: 0, judgeErrored: 0, judgeErrors: 0, scoreErrored: 3, rate: 0.3 },
      errorCauses: [
        {
          kind: 'score',
          judge: 'confaide-rating@1',
          name: 'ScoreError',
          message: 'no valid rating after 6 attempt(s)',
          count: 3,
          exampleSampleId: 'a#e1',
        },
      ],
    };
    const result = outcome({ summary: scored });
    expect(result.exitCode).toBe(4);
    expect(result.lines).toContain('errors 3: scorer confaide-rating@1: no valid rating after 6 attempt(s) ×3');
    expect(result.lines.at(-1)).toContain(
      'run failed: 3 of 10 samples failed (30%: 0 errored, 0 with a judge error, 3 a scorer could not score)',
    );
    expect(outcome({ summary: scored, maxErrorRate: 0.5 }).exitCode).toBe(0);
  });
});
