import { type FileHandle, open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { StoreFormatError } from '../spec/errors.js';
import {
  FORMAT_VERSION,
  type RunHeader,
  type RunSummary,
  runHeaderSchema,
  runSummarySchema,
  type SampleRecord,
  sampleRecordSchema,
} from '../spec/run-record.js';
import type { ReadSamplesOptions, RunStore, ScanSamplesOptions } from '../spec/run-store.js';
import { indexRecordLines, type RecordLine } from './index-record-lines.js';
import { parseRecordLine, readLatestRecordsFromFile, scanRecordsFromFile } from './read-latest-records.js';
import { encodeRecordLine } from './record-line.js';
import { type AcquiredRunLock, type AcquireRunLockOptions, acquireRunLock } from './run-lock.js';
import { parseWithSchema, type StoreWriteOptions, validateForWrite } from './validate-run-data.js';
import { writeFileAtomic } from './write-file-atomic.js';

/** File names inside a run directory (architecture §6). */
export const RUN_FILES = { header: 'header.json', samples: 'samples.jsonl', summary: 'summary.json' } as const;

/**
 * A run stored as a directory: `header.json`, `samples.jsonl` and `summary.json`.
 *
 * - Each sample record is one line `JSON + "\n"` (each long text stored once, see
 *   `encodeRecordLine`) appended through one append-mode handle, so a
 *   process killed mid-run leaves every completed line. Appends are group-committed: lines queued
 *   while a write is in flight go out together in the next single write, whole lines only, so
 *   records never interleave; an append resolves once its line is written.
 * - Before its first append the store drops a torn trailing line left by an earlier crash, so new
 *   records never glue onto a fragment.
 * - Header and summary are replaced atomically (temporary file + rename).
 * - Reads are validated with zod; problems raise `StoreFormatError` naming the file (and line).
 * - Header and summary are validated before they are written. Sample records are written as
 *   given unless the store was made with `validate: true`: the runner builds them in typed code
 *   and has checked the parts user code returned (see `StoreWriteOptions`).
 */
export class DirectoryRunStore implements RunStore {
  readonly location: string;
  private pending: Array<{ line: string; resolve: () => void; reject: (error: unknown) => void }> = [];
  private writing: Promise<void> | undefined;
  private handle: FileHandle | undefined;
  private idleClose: ReturnType<typeof setTimeout> | undefined;
  private tailChecked = false;
  private readonly validate: boolean;

  /** `directory` is the run directory itself (`<out>/<run-id>`); it must already exist to write. */
  constructor(directory: string, { validate = false }: StoreWriteOptions = {}) {
    this.location = directory;
    this.validate = validate;
  }

  private path(name: keyof typeof RUN_FILES): string {
    return join(this.location, RUN_FILES[name]);
  }

  /**
   * Locks this run directory for one writer (`run.lock`, see `acquireRunLock`): a second writer
   * gets a `RunLockedError`; a dead process's lock on this host is taken over.
   */
  acquireLock(options: Omit<AcquireRunLockOptions, 'directory'>): Promise<AcquiredRunLock> {
    return acquireRunLock({ ...options, directory: this.location });
  }

  async writeHeader(header: RunHeader): Promise<void> {
    const valid = validateForWrite({ schema: runHeaderSchema, value: header, what: 'run header' });
    await writeFileAtomic({ path: this.path('header'), text: `${JSON.stringify(valid, null, 2)}\n` });
  }

  async readHeader(): Promise<RunHeader> {
    const file = this.path('header');
    const text = await readOptional(file);
    if (text === null) throw new StoreFormatError(`not a confidant run directory: ${this.location} (no header.json)`);
    const json = parseJsonFile({ text, file });
    const version = typeof json === 'object' && json !== null ? Reflect.get(json, 'formatVersion') : undefined;
    if (version !== FORMAT_VERSION) {
      throw new StoreFormatError(
        `${file} has formatVersion ${JSON.stringify(version)}, but this version of confidant reads formatVersion ${FORMAT_VERSION}`,
      );
    }
    return parseWithSchema({ schema: runHeaderSchema, json, file });
  }

  async appendSample(record: SampleRecord): Promise<void> {
    const valid = this.validate
      ? validateForWrite({ schema: sampleRecordSchema, value: record, what: 'sample record' })
      : record;
    // Queued without its newline: `linesBuffer` adds it while copying, so no joined string is built.
    return this.queueLine(encodeRecordLine(valid));
  }

  /**
   * Appends whole record lines as they are (each ending in a newline), through the same
   * group-committed handle as `appendSample`: for lines already validated where they came from,
   * such as a merge copying the lines of its shards (`indexSampleLines`).
   */
  appendRecordLines(lines: string): Promise<void> {
    if (lines.length === 0) return Promise.resolve();
    return this.queueLine(lines.endsWith('\n') ? lines.slice(0, -1) : lines);
  }

  /** Queues text for the next group-committed write; the write adds one newline after it. */
  private queueLine(line: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ line, resolve, reject });
      if (this.writing === undefined) this.writing = this.drain();
    });
  }

  /** The path of this run's `samples.jsonl` (it may not exist yet). */
  get samplesFile(): string {
    return this.path('samples');
  }

  /**
   * Every valid record line of this run as its id and byte range (`indexRecordLines`), without
   * keeping a record: what a merge needs to copy a run of any size. Empty when no record was written.
   */
  async indexSampleLines(): Promise<RecordLine[]> {
    const file = this.path('samples');
    const exists = await stat(file).catch(() => null);
    if (!exists) {
      await this.assertRunDirectory();
      return [];
    }
    if (!exists.isFile()) throw notAFile(file);
    return indexRecordLines({ file });
  }

  /**
   * Group commit: writes every queued line, batch by batch, through one append handle. Lines
   * queued while a write is in flight go out together in the next write; each batch's callers
   * learn its outcome. The handle is closed once the queue has stayed empty for a moment.
   */
  private async drain(): Promise<void> {
    clearTimeout(this.idleClose);
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        const handle = await this.appendHandle();
        await writeAll({ handle, data: linesBuffer(batch) });
        for (const entry of batch) entry.resolve();
      } catch (error) {
        // The queue stays alive after a failed write; each caller of the batch sees the failure.
        for (const entry of batch) entry.reject(error);
        await this.closeHandle().catch(() => undefined);
      }
    }
    this.writing = undefined;
    this.idleClose = setTimeout(() => {
      if (this.writing === undefined) void this.closeHandle().catch(() => undefined);
    }, IDLE_CLOSE_MS);
    this.idleClose.unref();
  }

  private async appendHandle(): Promise<FileHandle> {
    if (this.handle !== undefined) return this.handle;
    if (!this.tailChecked) {
      await dropTornTail(this.path('samples'));
      this.tailChecked = true;
    }
    this.handle = await open(this.path('samples'), 'a');
    return this.handle;
  }

  private async closeHandle(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }

  async readSamples(options: ReadSamplesOptions = {}): Promise<SampleRecord[]> {
    const file = this.path('samples');
    const exists = await stat(file).catch(() => null);
    if (!exists) {
      await this.assertRunDirectory();
      return [];
    }
    if (!exists.isFile()) throw notAFile(file);
    // Streamed line by line: a large run's file can exceed the longest string Node can hold.
    return readLatestRecordsFromFile({ file, events: options.events !== false, history: options.history === true });
  }

  async scanSamples(options: ScanSamplesOptions, visit: (record: SampleRecord) => void): Promise<void> {
    const file = this.path('samples');
    const exists = await stat(file).catch(() => null);
    if (!exists) {
      await this.assertRunDirectory();
      return;
    }
    if (!exists.isFile()) throw notAFile(file);
    await scanRecordsFromFile({ file, events: options.events !== false, visit });
  }

  async writeSummary(summary: RunSummary): Promise<void> {
    const valid = validateForWrite({ schema: runSummarySchema, value: summary, what: 'run summary' });
    await writeFileAtomic({ path: this.path('summary'), text: `${JSON.stringify(valid, null, 2)}\n` });
  }

  async readSummary(): Promise<RunSummary | null> {
    const file = this.path('summary');
    const text = await readOptional(file);
    if (text === null) return null;
    return parseWithSchema({ schema: runSummarySchema, json: parseJsonFile({ text, file }), file });
  }

  private async assertRunDirectory(): Promise<void> {
    const header = await stat(this.path('header')).catch(() => null);
    if (!header?.isFile()) {
      throw new StoreFormatError(`not a confidant run directory: ${this.location} (no header.json)`);
    }
  }
}

/** Reads a file, or returns null when it does not exist; a folder in its place is a `StoreFormatError`. */
async function readOptional(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (isMissingFile(error)) return null;
    if (Reflect.get(Object(error), 'code') === 'EISDIR') throw notAFile(file);
    throw error;
  }
}

function notAFile(file: string): StoreFormatError {
  return new StoreFormatError(`${file} is not a file (a folder is in its place); is this a confidant run directory?`);
}

function isMissingFile(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * If `samples.jsonl` ends without a newline, the last append was cut short. A fragment that
 * still parses as a whole record only lacks its newline, which is added; anything else is
 * truncated away (it was never a completed record). Only the file's tail is read, backwards from
 * the end to the last newline, so repairing a large run costs no more than its last line.
 */
async function dropTornTail(file: string): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r+');
  } catch (error) {
    if (isMissingFile(error)) return;
    if (Reflect.get(Object(error), 'code') === 'EISDIR') throw notAFile(file);
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (last[0] === NEWLINE) return;
    const tailStart = await lineStartBefore({ handle, end: size });
    const tail = Buffer.alloc(size - tailStart);
    await handle.read(tail, 0, tail.length, tailStart);
    if (parseRecordLine(tail.toString('utf8')).ok) {
      await handle.write('\n', size, 'utf8');
      return;
    }
    await handle.truncate(tailStart);
    // Make the truncation durable before new records are appended after it.
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const NEWLINE = 0x0a;

/** The batch's lines as UTF-8, each with its newline, copied straight into one buffer. */
function linesBuffer(batch: ReadonlyArray<{ line: string }>): Buffer {
  let bytes = 0;
  for (const { line } of batch) bytes += Buffer.byteLength(line, 'utf8') + 1;
  const data = Buffer.allocUnsafe(bytes);
  let at = 0;
  for (const { line } of batch) {
    at += data.write(line, at, 'utf8');
    data[at] = NEWLINE;
    at += 1;
  }
  return data;
}
/** How long an idle store keeps its append handle open. */
const IDLE_CLOSE_MS = 250;

/** Writes all of `data` at the end of an append-mode file (a short write continues where it stopped). */
async function writeAll({ handle, data }: { handle: FileHandle; data: Buffer }): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    offset += bytesWritten;
  }
}
const TAIL_BLOCK = 64 * 1024;

/** The byte offset just after the last newline before `end` (0 when there is none). */
async function lineStartBefore({ handle, end }: { handle: FileHandle; end: number }): Promise<number> {
  const block = Buffer.alloc(TAIL_BLOCK);
  let position = end;
  while (position > 0) {
    const from = Math.max(0, position - TAIL_BLOCK);
    const { bytesRead } = await handle.read(block, 0, position - from, from);
    const newline = block.subarray(0, bytesRead).lastIndexOf(NEWLINE);
    if (newline >= 0) return from + newline + 1;
    position = from;
  }
  return 0;
}

function parseJsonFile({ text, file }: { text: string; file: string }): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new StoreFormatError(
      `${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}); is this a confidant run directory?`,
    );
  }
}
