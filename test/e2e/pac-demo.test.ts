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

  it('--split nparty: the naive agent tells every supplier what only the buyer may learn, per recipient in summary.json and the report', async () => {
    const run = await runCli({
      args: ['run', 'pac', '--preset', 'offline', '--split', 'nparty', '--model', 'reference:naive', '--out', 'np'],
      env: { HOME: work },
      cwd: work,
    });
    expect(run.code, run.stderr).toBe(0);
    const [dir] = readdirSync(join(work, 'np'));
    const runDir = join(work, 'np', dir ?? '');
    const summary = JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')) as {
      counts: { success: number };
      groups: Record<string, Record<string, { ps: { value: number | null } }>>;
    };
    expect(summary.counts.success).toBe(1);
    const ps = (group: string) =>
      Object.fromEntries(Object.entries(summary.groups[group] ?? {}).map(([key, value]) => [key, value.ps.value]));
    expect(ps('privacy_recipient')).toEqual({ north: 0, harbor: 0, ridge: 0, buyer: 1 });
    expect(ps('privacy_pair')).toMatchObject({
      'north->buyer': 1,
      'north->harbor': 0,
      'ridge->buyer': 1,
      'ridge->north': 0,
    });
    const report = await runCli({ args: ['report', runDir], env: { HOME: work }, cwd: work });
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain('| Sender \\ Recipient | north | harbor | ridge | buyer |');
    expect(report.stdout).toContain('| north |  | 0.0 / 0.0 (n=1) | 0.0 / 0.0 (n=1) | 100.0 / 100.0 (n=1) |');
    expect(report.stdout).toContain(
      '| Every sender | 0.0 / 0.0 (n=1) | 0.0 / 0.0 (n=1) | 0.0 / 0.0 (n=1) | 100.0 / 100.0 (n=1) |',
    );
  }, 120_000);
});
