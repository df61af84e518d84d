import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testRunHeader } from '../runner/testing/test-run-header.js';
import { DirectoryRunStore } from '../store/index.js';
import { testSampleRecord } from '../store/run-store.contract.js';
import { compareRecord } from './compare-runs.js';
import { readCompareRecords } from './read-compare-records.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'confidant-compare-records-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(root, { recursive: true, force: true });
});

describe('readCompareRecords', () => {
  it('gives the compareRecord form of readSamples’ latest records, in its order, from one streaming scan', async () => {
    const store = new DirectoryRunStore(root);
    await store.writeHeader(testRunHeader({ runId: 'r' }));
    for (let index = 0; index < 20; index += 1) {
      await store.appendSample(
        testSampleRecord({
          id: `s${index}#e1`,
          scores: [
            { scorer: 'judge@1', target: { name: 'leak' }, verdict: index % 3 === 0 ? 'fail' : 'pass', value: 1 },
          ],
          judgments: [{ judge: 'leak@1', model: 'mock:j', verdict: 'pass' }],
        }),
      );
    }
    // Redone samples: their latest records count, in the place their ids were first written.
    await store.appendSample(testSampleRecord({ id: 's4#e1', attempt: 2, scores: [] }));
    await store.appendSample(testSampleRecord({ id: 's0#e1', attempt: 2 }));
    const expected = (await store.readSamples({ events: false })).map((record) => compareRecord(record));
    const readWhole = vi.spyOn(DirectoryRunStore.prototype, 'readSamples');
    const scan = vi.spyOn(DirectoryRunStore.prototype, 'scanSamples');
    expect(await readCompareRecords(store)).toEqual(expected);
    expect(readWhole).not.toHaveBeenCalled();
    expect(scan).toHaveBeenCalledTimes(1);
    expect(scan.mock.calls[0]?.[0]).toEqual({ events: false });
  });

  it('reads a run without records as none', async () => {
    const store = new DirectoryRunStore(root);
    await store.writeHeader(testRunHeader({ runId: 'r' }));
    expect(await readCompareRecords(store)).toEqual([]);
  });
});
