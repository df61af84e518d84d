import { describe, expect, it } from 'vitest';
import { createProgressView, formatErrors, type ProgressSnapshot, progressLine } from './progress.js';

const snapshot = (done: number, overrides: Partial<ProgressSnapshot> = {}): ProgressSnapshot => ({
  update: 'sample',
  planned: 10,
  done,
  errors: 1,
  judgeErrors: 0,
  causes: [{ label: 'connection refused http://127.0.0.1:8000/v1 ×1', count: 1 }],
  sessionDone: done,
  inputTokens: 100,
  outputTokens: 20,
  costUsd: null,
  startedAt: new Date(0).toISOString(),
  ...overrides,
});

describe('plain progress', () => {
  it('prints the first update at once, then at most one line per interval, and always the final state', () => {
    const lines: string[] = [];
    let time = 0;
    const view = createProgressView({
      isTTY: false,
      write: (text) => lines.push(text),
      intervalMs: 1000,
      now: () => time,
    });
    view.update(
      snapshot(0, { update: 'start', errors: 0, causes: [], sessionDone: 0, inputTokens: 0, outputTokens: 0 }),
    );
    time = 1000;
    view.update(snapshot(1));
    time = 1500;
    view.update(snapshot(2));
    time = 1800;
    view.update(snapshot(3));
    view.stop();
    view.stop();
    expect(lines).toEqual([
      'progress: 0/10 samples, errors 0, 0 tokens, cost unknown, ETA —\n',
      'progress: 1/10 samples, errors 1: connection refused http://127.0.0.1:8000/v1 ×1, 120 tokens, cost unknown, ETA 9s\n',
      expect.stringMatching(/^progress: 3\/10 samples/),
    ]);
  });

  it("after a resume, estimates from this session's pace, not from the records already done", () => {
    // 6 done before the resume, 2 in this session over 4 s: 2 s a sample, 2 left → 4 s.
    const line = progressLine({ snapshot: snapshot(8, { sessionDone: 2, planned: 10 }), now: 4000 });
    expect(line).toContain('8/10 samples');
    expect(line).toContain('ETA 4s');
  });
});

describe('formatErrors', () => {
  it('sums errored samples and failed judge calls and shows the two most common causes', () => {
    expect(formatErrors({ errors: 0, judgeErrors: 0, causes: [] })).toBe('errors 0');
    expect(
      formatErrors({
        errors: 4,
        judgeErrors: 3,
        causes: [
          { label: 'connection refused http://127.0.0.1:8000/v1 ×4', count: 4 },
          { label: "judge leak@1: no valid 'Answer:' line ×2", count: 2 },
          { label: 'judge leak@1: timeout ×1', count: 1 },
        ],
      }),
    ).toBe(
      "errors 7: connection refused http://127.0.0.1:8000/v1 ×4; judge leak@1: no valid 'Answer:' line ×2; +1 more",
    );
  });
});
