import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leakScore, reportRecord } from '../../src/reports/__fixtures__/report-run.js';
import { writeFixtureRun } from '../support/fixture-runs.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

let work: string;
let runDir: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-per-sample-'));
  runDir = await writeFixtureRun({
    dir: join(work, 'run-a'),
    records: [
      reportRecord({ id: 's1#e1', scores: [leakScore(true, 'quoted the note')] }),
      reportRecord({ id: 's2#e1', scores: [leakScore(false)] }),
      reportRecord({
        id: 's3#e1',
        status: 'error',
        output: null,
        error: { name: 'ProviderError', message: 'refused' },
      }),
    ],
  });
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

const cli = (args: string[]) => runCliInProcess({ args, cwd: work });

describe('confidant report --per-sample', () => {
  it('writes one CSV row per sample with each score and error', async () => {
    const result = await cli(['report', 'run-a', '--per-sample', '--format', 'csv']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe('run-a,s1#e1,s1,,1,vanilla,ok,1,,,fail,1,quoted the note');
    expect(lines[3]).toBe('run-a,s3#e1,s3,,1,vanilla,error,1,ProviderError,refused,,,');
  });

  it('writes JSONL to --out', async () => {
    const result = await cli(['report', runDir, '--per-sample', '--format', 'jsonl', '--out', 'rows.jsonl']);
    expect(result.code, result.stderr).toBe(0);
    const rows = readFileSync(join(work, 'rows.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rows.map((row) => [row.id, row.status, row.scores[0]?.verdict ?? null])).toEqual([
      ['s1#e1', 'ok', 'fail'],
      ['s2#e1', 'ok', 'pass'],
      ['s3#e1', 'error', null],
    ]);
  });

  it('refuses Markdown per sample with exit 2', async () => {
    const result = await cli(['report', 'run-a', '--per-sample', '--format', 'md']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--per-sample writes csv or jsonl');
  });

  it('the table report carries the Wilson interval of the leak rate (1 of 2)', async () => {
    const result = await cli(['report', 'run-a', '--format', 'csv']);
    expect(result.stdout).toMatch(/^run-a,toy-leak,leak_rate,0\.5,2,1,0,,0\.0945312\d*,0\.9054687\d*,wilson$/m);
  });
});
