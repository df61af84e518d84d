import { describe, expect, it } from 'vitest';
import { testRunHeader } from '../runner/testing/test-run-header.js';
import { StoreFormatError } from '../spec/errors.js';
import type { RunSummary, SampleRecord } from '../spec/run-record.js';
import type { RunStore } from '../spec/run-store.js';
import type { StoreWriteOptions } from './validate-run-data.js';

/** A valid sample record for store tests; `overrides` replace fields. */
export function testSampleRecord(overrides: Partial<SampleRecord> & { id: string }): SampleRecord {
  const { id, ...rest } = overrides;
  return {
    id,
    scenarioId: id.split('#')[0] ?? id,
    variant: {},
    epoch: 1,
    seed: 7,
    status: 'ok',
    startedAt: '2025-01-02T03:04:05.000Z',
    finishedAt: '2025-01-02T03:04:06.000Z',
    attempt: 1,
    output: { answer: 'hello' },
    scores: [{ scorer: 'toy-leak-canary@1', verdict: 'pass', value: 0 }],
    events: [{ id: 'e1', time: '2025-01-02T03:04:05.000Z', type: 'sample-start', sampleId: id }],
    usage: { agent: { calls: 1, inputTokens: 10, outputTokens: 5, costUsd: 0.001, cachedCalls: 0 } },
    ...rest,
  };
}

const summary: RunSummary = {
  formatVersion: 1,
  runId: 'test-run',
  finishedAt: '2025-01-02T03:05:00.000Z',
  complete: true,
  counts: { planned: 1, success: 1, error: 0, missing: 0 },
  metrics: { leak_rate: { value: 0, n: 1, errors: 0, notApplicable: 0 } },
  usage: {},
  costUsd: 0,
  errorsByName: {},
};

/**
 * The behaviour every `RunStore` implementation must share. Call it from each implementation's
 * test file with a factory that returns a fresh, empty store.
 */
export function runStoreContract(name: string, createStore: (options?: StoreWriteOptions) => Promise<RunStore>): void {
  describe(`RunStore contract: ${name}`, () => {
    it('rejects reading a header that was never written with a StoreFormatError', async () => {
      const store = await createStore();
      await expect(store.readHeader()).rejects.toBeInstanceOf(StoreFormatError);
    });

    it('reads back the header it wrote, and a rewrite replaces it', async () => {
      const store = await createStore();
      await store.writeHeader(testRunHeader({ sampleIds: ['a#e1'] }));
      expect(await store.readHeader()).toEqual(testRunHeader({ sampleIds: ['a#e1'] }));
      await store.writeHeader(testRunHeader({ runId: 'second', sampleIds: ['b#e1'] }));
      expect((await store.readHeader()).runId).toBe('second');
      expect((await store.readHeader()).sampleIds).toEqual(['b#e1']);
    });

    it('starts with no samples and returns appended records unchanged', async () => {
      const store = await createStore();
      await store.writeHeader(testRunHeader());
      expect(await store.readSamples()).toEqual([]);
      const record = testSampleRecord({ id: 'a#e1', input: { messages: [] }, terminationReason: 'done' });
      await store.appendSample(record);
      expect(await store.readSamples()).toEqual([record]);
    });

    it('reads records without their events on request, everything else unchanged', async () => {
      const store = await createStore();
      await store.writeHeader(testRunHeader());
      const record = testSampleRecord({ id: 'a#e1' });
      await store.appendSample(record);
      const [light] = await store.readSamples({ events: false });
      expect(record.events.length).toBeGreaterThan(0);
      expect(light).toEqual({ ...record, events: [] });
      expect(await store.readSamples()).toEqual([record]);
    });

    it('keeps the last record per id, in first-seen order', async () => {
      const store = await createStore();
      await store.writeHeader(testRunHeader());
      await store.appendSample(
        testSampleRecord({ id: 'a#e1', status: 'error', scores: [], error: { name: 'X', message: 'boom' } }),
      );
      await store.appendSample(testSampleRecord({ id: 'b#e1' }));
      await store.appendSample(testSampleRecord({ id: 'a#e1', attempt: 2 }));
      const records = await store.readSamples();
      expect(records.map((record) => ({ id: record.id, attempt: record.attempt, status: record.status }))).toEqual([
        { id: 'a#e1', attempt: 2, status: 'ok' },
        { id: 'b#e1', attempt: 1, status: 'ok' },
      ]);
    });

    it('returns every record in append order with history, superseded ones included', async () => {
      const store = await createStore();
      await store.writeHeader(testRunHeader());
      const failed = testSampleRecord({
        id: 'a#e1',
        status: 'error',
        scores: [],
        error: { name: 'X', message: 'boom' },
      });
      await store.appendSample(failed);
      await store.appendSample(testSampleRecord({ id: 'b#e1' }));
      await store.appendSample(testSampleRecord({ id: 'a#e1', attempt: 2 }));
      const history = await store.readSamples({ history: true, events: false });
      expect(history.map((record) => `${record.id}@${record.attempt}`)).toEqual(['a#e1@1', 'b#e1@1', 'a#e1@2']);
      expect(history[0]).toEqual({ ...failed, events: [] });
      expect(await store.readSamples()).toHaveLength(2);
    });

    it('scans every record in append order, one at a time, events dropped when asked', async () => {
      const store = await createStore();
      await store.writeHeader(testRunHeader());
      await store.appendSample(
        testSampleRecord({ id: 'a#e1', status: 'error', scores: [], error: { name: 'X', message: 'boom' } }),
      );
      await store.appendSample(testSampleRecord({ id: 'b#e1' }));
      await store.appendSample(testSampleRecord({ id: 'a#e1', attempt: 2 }));
      const seen: string[] = [];
      await store.scanSamples({ events: false }, (record) => {
        seen.push(`${record.id}@${record.attempt}:${record.events.length}`);
      });
      expect(seen).toEqual(['a#e1@1:0', 'b#e1@1:0', 'a#e1@2:0']);
      const withEvents: number[] = [];
      await store.scanSamples({}, (record) => withEvents.push(record.events.length));
      expect(withEvents).toEqual([1, 1, 1]);
    });

    it('keeps every record of concurrent appends', async () => {
      const store = await createStore();
      await store.writeHeader(testRunHeader());
      const ids = Array.from({ length: 25 }, (_, index) => `s${index}#e1`);
      await Promise.all(ids.map((id) => store.appendSample(testSampleRecord({ id }))));
      expect((await store.readSamples()).map((record) => record.id).sort()).toEqual([...ids].sort());
    });

    it('with validate: true, refuses an invalid record and stores nothing for it', async () => {
      const store = await createStore({ validate: true });
      await store.writeHeader(testRunHeader());
      const invalid = { ...testSampleRecord({ id: 'a#e1' }), status: 'done' as 'ok' };
      await expect(store.appendSample(invalid)).rejects.toBeInstanceOf(TypeError);
      await store.appendSample(testSampleRecord({ id: 'b#e1' }));
      expect((await store.readSamples()).map((record) => record.id)).toEqual(['b#e1']);
    });

    it('by default writes a record as given, without checking it against the run format', async () => {
      const store = await createStore();
      await store.writeHeader(testRunHeader());
      // The runner checks what user code returned; the store trusts the record it builds.
      const unchecked = { ...testSampleRecord({ id: 'a#e1' }), status: 'done' as 'ok' };
      await expect(store.appendSample(unchecked)).resolves.toBeUndefined();
    });

    it('hands out copies, so mutating a read value changes nothing stored', async () => {
      const store = await createStore();
      await store.writeHeader(testRunHeader());
      await store.appendSample(testSampleRecord({ id: 'a#e1' }));
      const [first] = await store.readSamples();
      if (!first) throw new Error('expected a record');
      first.status = 'error';
      expect((await store.readSamples())[0]?.status).toBe('ok');
    });

    it('has no summary until one is written, then reads back the latest', async () => {
      const store = await createStore();
      await store.writeHeader(testRunHeader());
      expect(await store.readSummary()).toBeNull();
      await store.writeSummary(summary);
      expect(await store.readSummary()).toEqual(summary);
      await store.writeSummary({ ...summary, complete: false, stopReason: 'budget' });
      expect(await store.readSummary()).toEqual({ ...summary, complete: false, stopReason: 'budget' });
    });
  });
}
