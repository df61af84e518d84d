import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from './support/run-cli-in-process.js';
import { repoRoot } from './support/run-cli-process.js';

const home = mkdtempSync(join(tmpdir(), 'confidant-example-sweeps-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const env = { HOME: home, CONFIDANT_CACHE_DIR: join(home, 'cache'), CONFIDANT_DATA_DIR: join(home, 'data') };
const cli = (args: string[]) => runCliInProcess({ args, env, cwd: repoRoot });

describe('the example sweep files run offline', { timeout: 240_000 }, () => {
  it.each([
    ['privact-main', 16],
    ['pac-table1', 4],
    ['privacybench-ppe', 4],
  ])('%s plans its cells (dry run)', async (name, cells) => {
    const result = await cli(['sweep', 'run', `examples/sweeps/${name}.yaml`, '--dry-run']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(cells);
  });

  it('pac-table1 runs and reports the initiator × partner table (oracle alone is compliant)', async () => {
    const out = join(home, 'pac-table1');
    const run = await cli(['sweep', 'run', 'examples/sweeps/pac-table1.yaml', '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    const report = await cli(['sweep', 'report', out, '--metric', 'acc_joint', '--format', 'json']);
    expect(report.code, report.stderr).toBe(0);
    const table = JSON.parse(report.stdout) as {
      rows: string[];
      cols: string[];
      entries: Array<Array<Array<{ value: { value: number | null } | null }>>>;
    };
    expect(table.rows).toEqual(['oracle', 'naive']);
    expect(table.cols).toEqual(['oracle', 'naive']);
    expect(table.entries.map((row) => row.map((col) => col[0]?.value?.value))).toEqual([
      [1, 0],
      [0, 0],
    ]);
  });
});
