import { StoreFormatError } from '../spec/errors.js';
import {
  type RunHeader,
  type RunSummary,
  runHeaderSchema,
  runSummarySchema,
  type SampleRecord,
  sampleRecordSchema,
} from '../spec/run-record.js';
import type { ReadSamplesOptions, RunStore, ScanSamplesOptions } from '../spec/run-store.js';
import { type StoreWriteOptions, validateForWrite } from './validate-run-data.js';

/**
 * A run kept in memory, for tests and for runs whose records are not persisted. It behaves like
 * `DirectoryRunStore` (same validation, records checked on append only with `validate: true`, last record per id wins, values are copied in and out so
 * callers cannot mutate what is stored). `appendedCount` counts every append, including
 * superseded records, which lets tests check that resume ran each sample once.
 */
export class InMemoryRunStore implements RunStore {
  readonly location: string;
  private header: RunHeader | null = null;
  private summary: RunSummary | null = null;
  private readonly lines: SampleRecord[] = [];
  private readonly validate: boolean;

  /** `label` only names the store in messages and in `location`. */
  constructor(label = 'memory', { validate = false }: StoreWriteOptions = {}) {
    this.location = `memory:${label}`;
    this.validate = validate;
  }

  /** How many records were appended so far, superseded ones included. */
  get appendedCount(): number {
    return this.lines.length;
  }

  async writeHeader(header: RunHeader): Promise<void> {
    this.header = copy(validateForWrite({ schema: runHeaderSchema, value: header, what: 'run header' }));
  }

  async readHeader(): Promise<RunHeader> {
    if (!this.header) throw new StoreFormatError(`not a confidant run: ${this.location} (no header written)`);
    return copy(this.header);
  }

  async appendSample(record: SampleRecord): Promise<void> {
    this.lines.push(
      copy(
        this.validate ? validateForWrite({ schema: sampleRecordSchema, value: record, what: 'sample record' }) : record,
      ),
    );
  }

  async readSamples(options: ReadSamplesOptions = {}): Promise<SampleRecord[]> {
    if (!this.header) throw new StoreFormatError(`not a confidant run: ${this.location} (no header written)`);
    const latest = new Map<string, SampleRecord>();
    for (const record of this.lines) latest.set(record.id, record);
    const records = (options.history === true ? this.lines : [...latest.values()]).map(copy);
    return options.events === false ? records.map((record) => ({ ...record, events: [] })) : records;
  }

  async scanSamples(options: ScanSamplesOptions, visit: (record: SampleRecord) => void): Promise<void> {
    if (!this.header) throw new StoreFormatError(`not a confidant run: ${this.location} (no header written)`);
    for (const line of this.lines) {
      const record = copy(line);
      visit(options.events === false ? { ...record, events: [] } : record);
    }
  }

  async writeSummary(summary: RunSummary): Promise<void> {
    this.summary = copy(validateForWrite({ schema: runSummarySchema, value: summary, what: 'run summary' }));
  }

  async readSummary(): Promise<RunSummary | null> {
    return this.summary ? copy(this.summary) : null;
  }
}

/** A JSON round trip: the same copy semantics a directory store has. */
function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
