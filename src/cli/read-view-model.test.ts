import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { leakScore, reportHeader, reportRecord } from '../reports/__fixtures__/report-run.js';
import { runPlanSchema } from '../spec/run-plan.js';
import type { RunHeader, RunSummary, SampleRecord } from '../spec/run-record.js';
import { DirectoryRunStore } from '../store/index.js';
import { readViewModel } from './read-view-model.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function writeRun({ root, header, records }: { root: string; header: RunHeader; records: SampleRecord[] }) {
  const dir = join(root, header.runId);
  mkdirSync(dir);
  const store = new DirectoryRunStore(dir);
  await store.writeHeader({ ...header, sampleIds: records.map((record) => record.id) });
  for (const record of records) await store.appendSample(record);
  const summary: RunSummary = {
    formatVersion: 1,
    runId: header.runId,
    finishedAt: '2026-11-30T00:00:00.000Z',
    complete: true,
    counts: { planned: records.length, success: records.length, error: 0, missing: 0 },
    metrics: {},
    usage: {},
    costUsd: 0,
    errorsByName: {},
  };
  await store.writeSummary(summary);
  return dir;
}

describe('readViewModel', () => {
  it('compares each run with the first run of its own suite, not with the first run overall', async () => {
    const root = mkdtempSync(join(tmpdir(), 'confidant-view-model-'));
    made.push(root);
    const records = (leaks: boolean) => [reportRecord({ id: 's1#e1', scores: [leakScore(leaks)] })];
    const confaide = (runId: string) =>
      reportHeader({
        runId,
        plan: runPlanSchema.parse({ suite: 'confaide', suiteOptions: {}, epochs: 1 }),
        suite: { id: 'confaide', version: 1 },
        dataset: { name: 'confaide', files: [], hash: 'dataset-hash' },
      });
    const dirs = [
      await writeRun({ root, header: confaide('c1'), records: records(true) }),
      await writeRun({ root, header: reportHeader({ runId: 't1' }), records: records(true) }),
      await writeRun({ root, header: confaide('c2'), records: records(false) }),
      await writeRun({ root, header: reportHeader({ runId: 't2' }), records: records(false) }),
    ];
    const { model } = await readViewModel({ dirs, cwd: root, mode: 'server' });
    expect(model.comparisons.map((comparison) => [comparison.a.runId, comparison.b.runId])).toEqual([
      ['c1', 'c2'],
      ['t1', 't2'],
    ]);
    expect(model.incomparable).toEqual([]);
  });
});
