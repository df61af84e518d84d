import type { RunHeader, RunSummary, SampleRecord } from './run-record.js';

/**
 * Options of `RunStore.readSamples`. `history: true` returns every record in append order,
 * superseded ones included (a retried error's earlier record, a resumed duplicate), so that
 * usage can count every call made; the default is the latest record per id.
 */
export type ReadSamplesOptions = { events?: boolean; history?: boolean };

/** Options of `RunStore.scanSamples`: `events: false` hands each record over with `events: []`. */
export type ScanSamplesOptions = { events?: boolean };

/**
 * Where one run's records live. The runner writes only through this interface;
 * `store/` provides the directory and in-memory implementations.
 * Appends are durable one by one: a finished sample survives a crash of the process.
 */
export type RunStore = {
  /** Where the run lives (a directory path, or a label for in-memory stores). */
  readonly location: string;
  writeHeader(header: RunHeader): Promise<void>;
  readHeader(): Promise<RunHeader>;
  appendSample(record: SampleRecord): Promise<void>;
  /**
   * The latest record per sample id, in first-seen order (or, with `history`, every record in
   * append order); a torn trailing line is ignored.
   * With `events: false` every record comes back with `events: []`: summaries, reports,
   * resume and exports need only scores, outputs and usage, and a large run's events can
   * outweigh everything else (a judged PrivAct tree is megabytes of prompts).
   */
  readSamples(options?: ReadSamplesOptions): Promise<SampleRecord[]>;
  /**
   * Every record in append order (superseded ones included, a torn trailing line ignored), handed
   * to `visit` one at a time and not kept: a pass over a run of any size in memory that does not
   * grow with it (summaries, resume).
   */
  scanSamples(options: ScanSamplesOptions, visit: (record: SampleRecord) => void): Promise<void>;
  writeSummary(summary: RunSummary): Promise<void>;
  readSummary(): Promise<RunSummary | null>;
};
