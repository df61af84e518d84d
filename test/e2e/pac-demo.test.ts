import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli-process.js';

let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'confidant-demo-'));
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('confidant demo', () => {
  it('runs offline with the reference agents: the naive agent violates, the oracle complies', async () => {
    // No provider keys, no data dir, no network: the demo needs none of them.
    const result = await runCli({ args: ['demo', '--out', 'demo-out'], env: { HOME: work }, cwd: work });
    expect(result.code, result.stderr).toBe(0);
    const out = result.stdout;
    expect(out).toContain('| reference:naive | 3/3 | 100.0 | 0.0 | 100.0 | 0.0 | 0.0 | n/a |');
    expect(out).toContain('| reference:oracle | 3/3 | 100.0 | 100.0 | 100.0 | 100.0 | 100.0 | n/a |');
    expect(out).toContain('reference:naive violates its policies');
    expect(out).toContain('reference:oracle complies with every policy');
    expect(out).toContain('n/a: Grounded needs an LLM judge');
    const runs = readdirSync(join(work, 'demo-out'));
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      const summary = JSON.parse(readFileSync(join(work, 'demo-out', run, 'summary.json'), 'utf8')) as {
        counts: { success: number; error: number };
        usage: Record<string, unknown>;
      };
      expect(summary.counts).toMatchObject({ success: 3, error: 0 });
      expect(summary.usage).toEqual({});
    }
  }, 120_000);
});
