import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { leakScore, reportRecord } from '../__fixtures__/report-run.js';
import { SamplesFile } from './samples-file.js';

const work = mkdtempSync(join(tmpdir(), 'confidant-samples-file-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('SamplesFile', () => {
  it('indexes the latest record per id, reads one back by its byte range, and searches the text', async () => {
    const file = join(work, 'samples.jsonl');
    const line = (record: object) => `${JSON.stringify(record)}\n`;
    writeFileSync(
      file,
      line(reportRecord({ id: 'a', output: 'first try', status: 'error', error: { name: 'E', message: 'x' } })),
    );
    appendFileSync(file, line(reportRecord({ id: 'b', output: 'Ünïcode "quoted" secret', scores: [leakScore(true)] })));
    appendFileSync(file, line(reportRecord({ id: 'a', attempt: 2, output: 'second try', scores: [leakScore(false)] })));
    appendFileSync(file, '{"torn":');
    const samples = await SamplesFile.open(file);
    expect(samples.rows.map((row) => [row.id, row.status, row.leaked, row.compliant])).toEqual([
      ['a', 'ok', false, true],
      ['b', 'ok', true, false],
    ]);
    expect((await samples.record('a'))?.output).toBe('second try');
    expect((await samples.record('b'))?.output).toBe('Ünïcode "quoted" secret');
    expect(await samples.record('zzz')).toBeNull();
    expect(await samples.search('TRY')).toEqual(['a']); // only the latest record of a counts
    expect(await samples.search('first try')).toEqual([]);
    expect(await samples.search('"quoted"')).toEqual(['b']);
  });

  it('a run without samples.jsonl has no samples', async () => {
    expect((await SamplesFile.open(join(work, 'missing.jsonl'))).rows).toEqual([]);
  });
});
