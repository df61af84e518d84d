import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testRunHeader } from '../runner/testing/test-run-header.js';
import type { RunHeader } from '../spec/run-record.js';
import { DirectoryRunStore, LatestRecordLines } from '../store/index.js';
import { testSampleRecord } from '../store/run-store.contract.js';
import { perSampleRows } from './per-sample-rows.js';
import { renderPerSampleCsv, renderPerSampleJsonl } from './render-per-sample.js';
import { PER_SAMPLE_CHUNK_ROWS, streamPerSample } from './stream-per-sample.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'confidant-per-sample-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(root, { recursive: true, force: true });
});

/** A run of `n` samples: mixed score keys, an error, one sample redone (a superseded line). */
async function makeRun(
  name: string,
  n: number,
  { redo = true }: { redo?: boolean } = {},
): Promise<{ header: RunHeader; store: DirectoryRunStore }> {
  const directory = join(root, name);
  await mkdir(directory);
  const store = new DirectoryRunStore(directory);
  const header = testRunHeader({ runId: name });
  await store.writeHeader(header);
  for (let index = 0; index < n; index += 1) {
    await store.appendSample(
      testSampleRecord({
        id: `s${index}#e1`,
        variant: index % 3 === 0 ? { defense: 'guard', question: 'q,"1"' } : {},
        ...(index === 2
          ? { status: 'error', scores: [], error: { name: 'ModelCallError', message: 'refused, twice' } }
          : {}),
        ...(index % 5 === 4
          ? {
              scores: [
                { scorer: 'judge@1', target: { name: 'leak' }, verdict: 'fail', value: 1, explanation: 'said "x"' },
                { scorer: 'toy-leak-canary@1', verdict: 'pass', value: 0 },
              ],
            }
          : {}),
      }),
    );
  }
  if (redo) await store.appendSample(testSampleRecord({ id: 's1#e1', attempt: 2, scores: [] }));
  return { header, store };
}

async function streamed(runs: { header: RunHeader; store: DirectoryRunStore }[], format: 'csv' | 'jsonl') {
  const chunks: string[] = [];
  await streamPerSample({ runs, format, write: (chunk) => chunks.push(chunk) });
  return chunks;
}

describe('streamPerSample', () => {
  it('writes the same CSV and JSONL as the renderers over every record read at once', async () => {
    const runs = [await makeRun('a', 12), await makeRun('b', 7, { redo: false }), await makeRun('c', 9)];
    const rows = [];
    for (const run of runs)
      rows.push(...perSampleRows({ header: run.header, records: await run.store.readSamples({ events: false }) }));
    expect((await streamed(runs, 'csv')).join('')).toBe(renderPerSampleCsv(rows));
    expect((await streamed(runs, 'jsonl')).join('')).toBe(renderPerSampleJsonl(rows));
    expect((await streamed([], 'csv')).join('')).toBe(renderPerSampleCsv([]));
    expect((await streamed([], 'jsonl')).join('')).toBe('');
  });

  it('holds at most a chunk of rows: each chunk is written before more records are read, the run is never read whole', async () => {
    const n = PER_SAMPLE_CHUNK_ROWS * 2 + 50;
    const readWhole = vi.spyOn(DirectoryRunStore.prototype, 'readSamples');
    // Every record handed over, by the streaming scan or read by id.
    let handed = 0;
    const scan = DirectoryRunStore.prototype.scanSamples;
    vi.spyOn(DirectoryRunStore.prototype, 'scanSamples').mockImplementation(function (
      this: DirectoryRunStore,
      options,
      visit,
    ) {
      return scan.call(this, options, (record) => {
        handed += 1;
        visit(record);
      });
    });
    const read = LatestRecordLines.prototype.read;
    vi.spyOn(LatestRecordLines.prototype, 'read').mockImplementation(function (this: LatestRecordLines, id, options) {
      handed += 1;
      return read.call(this, id, options);
    });
    for (const redo of [false, true]) {
      const run = await makeRun(`big-${redo}`, n, { redo });
      // The first pass hands every record over without keeping a row (a redone run: every line, then every latest record by id).
      const firstPass = redo ? 2 * n + 1 : n;
      for (const format of ['jsonl', 'csv'] as const) {
        handed = 0;
        let written = 0;
        let mostInHand = 0;
        await streamPerSample({
          runs: [run],
          format,
          write: (chunk) => {
            if (chunk.startsWith('run_id,')) {
              expect(handed).toBe(firstPass);
              return;
            }
            // Rows handed over since the last write: those this chunk holds.
            mostInHand = Math.max(mostInHand, handed - firstPass - written);
            written += chunk.split('\n').length - 1;
          },
        });
        expect(written).toBe(n);
        expect(handed).toBe(firstPass + n);
        expect(mostInHand).toBe(PER_SAMPLE_CHUNK_ROWS);
      }
    }
    expect(readWhole).not.toHaveBeenCalled();
  });
});
