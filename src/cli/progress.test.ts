import { describe, expect, it } from 'vitest';
import { createProgressView, type ProgressSnapshot } from './progress.js';

const snapshot = (done: number): ProgressSnapshot => ({
  planned: 10,
  done,
  errors: 1,
  inputTokens: 100,
  outputTokens: 20,
  costUsd: null,
  startedAt: new Date(0).toISOString(),
});

describe('plain progress', () => {
  it('prints at most one line per interval and always the final state', () => {
    const lines: string[] = [];
    let time = 0;
    const view = createProgressView({
      isTTY: false,
      write: (text) => lines.push(text),
      intervalMs: 1000,
      now: () => time,
    });
    time = 1000;
    view.update(snapshot(1));
    time = 1500;
    view.update(snapshot(2));
    time = 1800;
    view.update(snapshot(3));
    view.stop();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('progress: 1/10 samples, 1 errors, 120 tokens, cost unknown, ETA 9s\n');
    expect(lines[1]).toMatch(/^progress: 3\/10 samples/);
  });
});
