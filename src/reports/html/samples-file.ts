import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { SampleRecord } from '../../spec/run-record.js';
import { parseRecordLine } from '../../store/read-latest-records.js';
import { type SampleIndexRow, sampleIndexRow } from './sample-index.js';

/** Calls `onLine` with every complete or trailing line of `file` and its byte offset. */
async function scanLines(file: string, onLine: (line: Buffer, offset: number) => void): Promise<void> {
  let pending: Buffer = Buffer.alloc(0);
  let pendingOffset = 0;
  const stream = createReadStream(file);
  for await (const chunk of stream) {
    let buffer: Buffer = pending.length === 0 ? (chunk as Buffer) : Buffer.concat([pending, chunk as Buffer]);
    let start = 0;
    let newline = buffer.indexOf(0x0a, start);
    while (newline !== -1) {
      onLine(buffer.subarray(start, newline), pendingOffset + start);
      start = newline + 1;
      newline = buffer.indexOf(0x0a, start);
    }
    pendingOffset += start;
    buffer = buffer.subarray(start);
    pending = Buffer.from(buffer);
  }
  if (pending.length > 0) onLine(pending, pendingOffset);
}

/**
 * A run's `samples.jsonl` opened read-only for the viewer: one scan keeps, per sample, the byte
 * range of its latest record and its {@link SampleIndexRow}; transcripts are read back one record
 * at a time, so memory stays flat however large the run. Lines that do not parse are skipped
 * (a torn tail of a crashed run).
 */
export class SamplesFile {
  private constructor(
    private readonly file: string,
    private readonly ranges: Map<string, { offset: number; length: number }>,
    readonly rows: SampleIndexRow[],
  ) {}

  /** Scans `file`; a missing file is a run with no samples yet. */
  static async open(file: string): Promise<SamplesFile> {
    const ranges = new Map<string, { offset: number; length: number }>();
    const rows = new Map<string, SampleIndexRow>();
    try {
      await scanLines(file, (line, offset) => {
        const parsed = parseRecordLine(line.toString('utf8'));
        if (!parsed.ok) return;
        ranges.set(parsed.value.id, { offset, length: line.length });
        rows.set(parsed.value.id, sampleIndexRow(parsed.value));
      });
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOENT') throw error;
    }
    return new SamplesFile(file, ranges, [...rows.values()]);
  }

  /** The latest record of a sample, read from disk; null for an unknown id. */
  async record(id: string): Promise<SampleRecord | null> {
    const range = this.ranges.get(id);
    if (range === undefined) return null;
    const handle = await open(this.file, 'r');
    try {
      const buffer = Buffer.alloc(range.length);
      await handle.read(buffer, 0, range.length, range.offset);
      const parsed = parseRecordLine(buffer.toString('utf8'));
      return parsed.ok ? parsed.value : null;
    } finally {
      await handle.close();
    }
  }

  /**
   * Ids of samples whose latest record contains `query` anywhere (transcript, scores, judge
   * exchanges), case-insensitive, in index order. The query is matched as it appears inside JSON
   * strings, so quotes and line breaks in it match the stored text.
   */
  async search(query: string): Promise<string[]> {
    const needle = JSON.stringify(query.toLowerCase()).slice(1, -1);
    if (needle === '') return this.rows.map((row) => row.id);
    const latest = new Map([...this.ranges].map(([id, range]) => [range.offset, id]));
    const hits = new Set<string>();
    await scanLines(this.file, (line, offset) => {
      const id = latest.get(offset);
      if (id !== undefined && line.toString('utf8').toLowerCase().includes(needle)) hits.add(id);
    });
    return this.rows.filter((row) => hits.has(row.id)).map((row) => row.id);
  }
}
