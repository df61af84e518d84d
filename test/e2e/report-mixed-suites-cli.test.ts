import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leakScore, reportRecord } from '../../src/reports/__fixtures__/report-run.js';
import { runPlanSchema } from '../../src/spec/run-plan.js';
import { writeFixtureRun } from '../support/fixture-runs.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-mixed-suites-'));
  await writeFixtureRun({
    dir: join(work, 'toy'),
    records: [reportRecord({ id: 's1#e1', scores: [leakScore(true)] })],
  });
  await writeFixtureRun({
    dir: join(work, 'toy-2'),
    header: { runId: 'run-b' },
    records: [reportRecord({ id: 's1#e1', scores: [leakScore(false)] })],
  });
  await writeFixtureRun({
    dir: join(work, 'conf'),
    header: {
      runId: 'run-c',
      suite: { id: 'confaide', version: 1 },
      plan: runPlanSchema.parse({ suite: 'confaide', suiteOptions: { tier: '3' }, epochs: 1 }),
    },
    records: [reportRecord({ id: 'c1#e1', scores: [] })],
  });
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

const cli = (args: string[]) => runCliInProcess({ args, cwd: work });
const REASON = 'these runs are of 2 suites: toy-leak (toy), confaide (conf)';

describe('confidant report over runs of different suites', () => {
  it('refuses the Markdown table with exit 2 and the reason, printing no table', async () => {
    const result = await cli(['report', 'toy', 'conf']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`report shows runs of one suite side by side, and ${REASON}`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses CSV and JSON the same way', async () => {
    for (const format of ['csv', 'json']) {
      const result = await cli(['report', 'toy', 'conf', '--format', format]);
      expect(result.code, format).toBe(2);
      expect(result.stdout, format).toBe('');
      expect(result.stderr, format).toContain(REASON);
    }
  });

  it('refuses the HTML report with exit 2 and writes no file', async () => {
    const result = await cli(['report', 'toy', 'conf', '--format', 'html', '--out', 'mixed.html']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`report --format html shows runs of one suite side by side, and ${REASON}`);
    expect(existsSync(join(work, 'mixed.html'))).toBe(false);
  });

  it('still reports two runs of one suite side by side', async () => {
    const md = await cli(['report', 'toy', 'toy-2']);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('confidant report: toy-leak');
    const html = await cli(['report', 'toy', 'toy-2', '--format', 'html', '--out', 'one.html']);
    expect(html.code, html.stderr).toBe(0);
    expect(existsSync(join(work, 'one.html'))).toBe(true);
  });
});
