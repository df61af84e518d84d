import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testRunHeader } from '../runner/testing/test-run-header.js';
import { DirectoryRunStore } from './directory-run-store.js';
import { LatestRecordLines } from './latest-record-lines.js';
import { testSampleRecord } from './run-store.contract.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'confidant-latest-lines-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('LatestRecordLines', () => {
  it('reads the same latest records, events included, as readSamples, one at a time by id', async () => {
    const directory = join(root, 'run');
    await mkdir(directory);
    const store = new DirectoryRunStore(directory);
    await store.writeHeader(testRunHeader());
    const event = (sampleId: string) => ({
      id: 'e1',
      time: '2025-01-02T03:04:05.000Z',
      type: 'sample-start' as const,
      sampleId,
    });
    for (const id of ['a#e1', 'b#e1', 'c#e1']) {
      await store.appendSample(testSampleRecord({ id, output: { text: `first ${id}` }, events: [event(id)] }));
    }
    // b is redone: its latest record is the later line, and it keeps its first-seen place.
    await store.appendSample(testSampleRecord({ id: 'b#e1', attempt: 2, output: { text: 'again' }, events: [] }));

    const expected = await store.readSamples({ events: true });
    const lines = await LatestRecordLines.open(store);
    try {
      expect(lines.size).toBe(3);
      expect([...lines.ids()]).toEqual(expected.map((record) => record.id));
      expect(lines.has('b#e1')).toBe(true);
      expect(lines.has('z#e1')).toBe(false);
      expect(await lines.read('z#e1')).toBeUndefined();
      const read = [];
      for (const id of lines.ids()) read.push(await lines.read(id));
      expect(read).toEqual(expected);
      expect((await lines.read('b#e1'))?.attempt).toBe(2);
    } finally {
      await lines.close();
    }
    // Closing is idempotent, and a later read reopens the file.
    await lines.close();
    expect((await lines.read('a#e1'))?.events).toHaveLength(1);
    await lines.close();
  });

  it('is empty for a run without records', async () => {
    const directory = join(root, 'empty');
    await mkdir(directory);
    const store = new DirectoryRunStore(directory);
    await store.writeHeader(testRunHeader());
    const lines = await LatestRecordLines.open(store);
    expect(lines.size).toBe(0);
    expect(await lines.read('a#e1')).toBeUndefined();
    await lines.close();
  });
});
