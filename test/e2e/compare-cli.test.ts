import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leakScore, reportRecord } from '../../src/reports/__fixtures__/report-run.js';
import { writeFixtureRun } from '../support/fixture-runs.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

let work: string;
const ids = ['s1', 's2', 's3', 's4'];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-compare-'));
  await writeFixtureRun({
    dir: join(work, 'vanilla'),
    header: { runId: 'vanilla' },
    records: ids.map((id) => reportRecord({ id: `${id}#e1`, scores: [leakScore(true)] })),
  });
  await writeFixtureRun({
    dir: join(work, 'guarded'),
    header: { runId: 'guarded', defenses: ['privacy-prompt'] },
    records: ids.map((id, index) => reportRecord({ id: `${id}#e1`, scores: [leakScore(index === 0)] })),
  });
  await writeFixtureRun({
    dir: join(work, 'other-data'),
    header: { runId: 'other-data', dataset: { name: 'toy-leak', files: [], hash: 'different-hash' } },
    records: ids.map((id) => reportRecord({ id: `${id}#e1`, scores: [leakScore(false)] })),
  });
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

const cli = (args: string[]) => runCliInProcess({ args, cwd: work });

describe('confidant compare', () => {
  it('prints the difference, the paired tests and the flipped samples', async () => {
    const result = await cli(['compare', 'vanilla', 'guarded']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('## guarded vs vanilla');
    expect(result.stdout).toContain('| Leak rate (%) | 100.0 | 51.0–100.0 | 25.0 | 4.6–69.9 | -75.0 |');
    expect(result.stdout).toMatch(
      /\| toy-leak-canary@1 \| 4 \| 100\.0 \| 25\.0 \| -75\.0 \| .* \| 3 \/ 0 \| 0\.250 \|/,
    );
    expect(result.stdout).toContain('### Flipped samples (3)');
    expect(result.stdout).toContain('| s2#e1 | s2 | toy-leak-canary@1 | fail | pass |');
  });

  it('writes JSON with every flipped sample', async () => {
    const result = await cli(['compare', 'vanilla', 'guarded', '--format', 'json']);
    const json = JSON.parse(result.stdout) as { comparisons: Array<{ flipped: Array<{ sampleId: string }> }> };
    expect(json.comparisons[0]?.flipped.map((flip) => flip.sampleId)).toEqual(['s2#e1', 's3#e1', 's4#e1']);
  });

  it('refuses runs on different data with exit 2 and the reason', async () => {
    const result = await cli(['compare', 'vanilla', 'other-data']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('read different toy-leak data');
    expect(result.stdout).toBe('');
  });
});
