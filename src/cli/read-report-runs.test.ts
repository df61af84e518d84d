import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testRunHeader } from '../runner/testing/test-run-header.js';
import { DirectoryRunStore } from '../store/index.js';
import { testSampleRecord } from '../store/run-store.contract.js';
import { readReportHeaders } from './read-report-runs.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'confidant-report-headers-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(root, { recursive: true, force: true });
});

describe('readReportHeaders', () => {
  it('reads the header of a run killed before its summary without reading a record or a summary', async () => {
    const store = new DirectoryRunStore(root);
    const header = testRunHeader({ runId: 'killed' });
    await store.writeHeader(header);
    await store.appendSample(testSampleRecord({ id: 's1#e1' }));
    const spies = (['readSummary', 'scanSamples', 'readSamples'] as const).map((method) =>
      vi.spyOn(DirectoryRunStore.prototype, method),
    );
    const runs = await readReportHeaders({ dirs: ['.'], cwd: root });
    expect(runs.map((run) => ({ dir: run.dir, header: run.header }))).toEqual([
      { dir: root, header: await store.readHeader() },
    ]);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });
});
