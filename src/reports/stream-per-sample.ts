import type { RunHeader } from '../spec/run-record.js';
import { type DirectoryRunStore, LatestRecordLines } from '../store/index.js';
import { type PerSampleRow, perSampleRow, scoreKey } from './per-sample-rows.js';
import { PerSampleScoreKeys, perSampleCsvHeader, perSampleCsvLine, perSampleJsonlLine } from './render-per-sample.js';

/** The per-sample formats `streamPerSample` writes. */
export type PerSampleFormat = 'csv' | 'jsonl';

/** Rows are handed to `write` in chunks of at most this many. */
export const PER_SAMPLE_CHUNK_ROWS = 256;

/**
 * Writes the per-sample rows of runs (`report --per-sample`) as they are read, the same text as
 * `renderPerSampleCsv` / `renderPerSampleJsonl` over `perSampleRows` of each run's
 * `readSamples({ events: false })`, in chunks of at most `PER_SAMPLE_CHUNK_ROWS` rows, so at most
 * a chunk of rows is held, whatever the size of the runs. A first streaming pass (`scanSamples`)
 * collects the ids and the score keys (the CSV columns, in first-seen order); when every id has
 * one record, a second pass writes the rows in file order. A run with superseded records (a
 * redone sample) is read by id instead (`LatestRecordLines`), each sample's latest record in the
 * place its id was first written.
 */
export async function streamPerSample({
  runs,
  format,
  write,
}: {
  runs: readonly { header: RunHeader; store: DirectoryRunStore }[];
  format: PerSampleFormat;
  write: (text: string) => void;
}): Promise<void> {
  let chunk: string[] = [];
  const flush = () => {
    if (chunk.length > 0) write(chunk.join(''));
    chunk = [];
  };
  const push = (text: string) => {
    chunk.push(text);
    if (chunk.length >= PER_SAMPLE_CHUNK_ROWS) flush();
  };
  const keys = new PerSampleScoreKeys();
  const superseded: boolean[] = [];
  for (const run of runs) superseded.push(await firstPass({ store: run.store, keys }));
  if (format === 'csv') write(`${perSampleCsvHeader(keys.list)}\n`);
  const line = (row: PerSampleRow) =>
    format === 'jsonl' ? perSampleJsonlLine(row) : `${perSampleCsvLine({ row, keys: keys.list })}\n`;
  for (const [index, run] of runs.entries()) {
    if (!superseded[index]) {
      await run.store.scanSamples({ events: false }, (record) =>
        push(line(perSampleRow({ header: run.header, record }))),
      );
      continue;
    }
    const lines = await LatestRecordLines.open(run.store);
    try {
      for (const id of lines.ids()) {
        const record = await lines.read(id, { events: false });
        if (record !== undefined) push(line(perSampleRow({ header: run.header, record })));
      }
    } finally {
      await lines.close();
    }
  }
  flush();
}

/**
 * One streaming pass over a run: whether a sample has more than one record, and the score keys of
 * its latest records added to `keys` (first-seen order). With superseded records the keys are
 * taken from the latest records read by id, as the rows will be.
 */
async function firstPass({ store, keys }: { store: DirectoryRunStore; keys: PerSampleScoreKeys }): Promise<boolean> {
  const seen = new Set<string>();
  const runKeys = new PerSampleScoreKeys();
  let superseded = false;
  await store.scanSamples({ events: false }, (record) => {
    if (seen.has(record.id)) superseded = true;
    seen.add(record.id);
    if (!superseded) runKeys.add({ scores: record.scores.map((score) => ({ key: scoreKey(score) })) });
  });
  if (!superseded) {
    for (const key of runKeys.list) keys.add({ scores: [{ key }] });
    return false;
  }
  const lines = await LatestRecordLines.open(store);
  try {
    for (const id of lines.ids()) {
      const record = await lines.read(id, { events: false });
      if (record !== undefined) keys.add({ scores: record.scores.map((score) => ({ key: scoreKey(score) })) });
    }
  } finally {
    await lines.close();
  }
  return true;
}
