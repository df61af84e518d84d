import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { leakScore, reportHeader, reportRecord } from '../reports/__fixtures__/report-run.js';
import { sampleIndexRow } from '../reports/html/sample-index.js';
import { runPlanSchema } from '../spec/run-plan.js';
import type { RunHeader, RunSummary, SampleRecord } from '../spec/run-record.js';
import { DirectoryRunStore } from '../store/index.js';
import { readViewModel } from './read-view-model.js';

const made: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
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

  it('static: browser rows of the latest records and each run’s records by id, never reading a run whole', async () => {
    const root = mkdtempSync(join(tmpdir(), 'confidant-view-model-'));
    made.push(root);
    const records = [0, 1, 2].map((index) => reportRecord({ id: `s${index}#e1`, scores: [leakScore(index === 1)] }));
    const dir = await writeRun({ root, header: reportHeader({ runId: 't1' }), records });
    const redone = reportRecord({ id: 's1#e1', attempt: 2, scores: [leakScore(false)] });
    await new DirectoryRunStore(dir).appendSample(redone);
    const latest = [records[0], redone, records[2]] as SampleRecord[];
    const readWhole = vi.spyOn(DirectoryRunStore.prototype, 'readSamples');
    const { model, records: embedded } = await readViewModel({ dirs: [dir, dir], cwd: root, mode: 'static' });
    try {
      expect(readWhole).not.toHaveBeenCalled();
      expect(model.samples).toEqual([latest.map(sampleIndexRow), latest.map(sampleIndexRow)]);
      expect(model.comparisons).toHaveLength(1);
      expect(model.comparisons[0]?.shared).toBe(3);
      expect(embedded).toHaveLength(2);
      const first = embedded?.[0];
      expect([...(first?.ids ?? [])]).toEqual(latest.map((record) => record.id));
      expect(await first?.read('s1#e1')).toEqual(redone);
    } finally {
      for (const run of embedded ?? []) await run.close();
    }
  });
});
