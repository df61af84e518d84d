import type { FileHandle } from 'node:fs/promises';
import { StoreFormatError } from '../spec/errors.js';
import type { SampleRecord } from '../spec/run-record.js';
import type { DirectoryRunStore } from './directory-run-store.js';
import { openRecordLines, type RecordLine, readRecordLine } from './index-record-lines.js';
import { parseRecordLine, parseRecordLineWithoutEvents } from './read-latest-records.js';

/**
 * The latest record of every sample of a run, read one at a time by id: the run's lines are
 * indexed once (`indexSampleLines`: ids and byte ranges, every line validated), and `read` parses
 * only the line asked for, with its events. A reader that visits records by id (a rescore
 * replaying each sample as it is scored) holds the index and the records in hand, never the run.
 * `close` releases the file; reading after it reopens it.
 */
export class LatestRecordLines {
  private handle: Promise<FileHandle> | undefined;

  private constructor(
    private readonly file: string,
    private readonly latest: ReadonlyMap<string, RecordLine>,
  ) {}

  /** Indexes the run's `samples.jsonl` (an empty index when no record was written). */
  static async open(store: DirectoryRunStore): Promise<LatestRecordLines> {
    const latest = new Map<string, RecordLine>();
    for (const line of await store.indexSampleLines()) latest.set(line.id, line);
    return new LatestRecordLines(store.samplesFile, latest);
  }

  /** How many samples have a record. */
  get size(): number {
    return this.latest.size;
  }

  /** Whether the sample has a record. */
  has(id: string): boolean {
    return this.latest.has(id);
  }

  /** The ids with a record, in the order they were first written (as `readSamples` gives them). */
  ids(): IterableIterator<string> {
    return this.latest.keys();
  }

  /**
   * The sample's latest record with its events (with `events: false`, `events: []`, the events
   * neither validated nor kept), or undefined when it has none.
   */
  async read(id: string, { events = true }: { events?: boolean } = {}): Promise<SampleRecord | undefined> {
    const line = this.latest.get(id);
    if (line === undefined) return undefined;
    this.handle ??= openRecordLines(this.file);
    const text = (await readRecordLine({ handle: await this.handle, line })).slice(0, -1);
    const parsed = events ? parseRecordLine(text) : parseRecordLineWithoutEvents(text);
    if (!parsed.ok) {
      throw new StoreFormatError(`record ${id} in ${this.file} changed since it was indexed: ${parsed.reason}`);
    }
    return parsed.value;
  }

  /** Closes the file (idempotent). */
  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    if (handle !== undefined) await (await handle).close();
  }
}
