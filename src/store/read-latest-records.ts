import { createReadStream } from 'node:fs';
import { StoreFormatError } from '../spec/errors.js';
import { createJsonLinesReader, type JsonLineParse, parseJsonLine } from '../spec/json-lines.js';
import { type SampleRecord, sampleRecordSchema } from '../spec/run-record.js';
import { resolveRecordRefs } from './record-line.js';

/**
 * Collects the latest record per sample id, in first-seen order, from a `samples.jsonl` file fed
 * chunk by chunk, by the append-only JSON-lines contract (`createJsonLinesReader`): a malformed
 * complete line is a `StoreFormatError` naming `file` and the 1-based line, a torn last line is
 * kept only when it parses as a whole record. Later lines win over earlier lines with the same id,
 * because records are never rewritten in place. With `events: false` each record's events are
 * dropped as soon as it is parsed.
 */
function latestRecords({ file, events, history = false }: { file: string; events: boolean; history?: boolean }) {
  const latest = new Map<string, SampleRecord>();
  const all: SampleRecord[] = [];
  const reader = createJsonLinesReader({
    parse: events ? parseRecordLine : parseRecordLineWithoutEvents,
    malformed: ({ line, reason }) => new StoreFormatError(`malformed record in ${file} at line ${line}: ${reason}`),
    onValue: (record: SampleRecord) => {
      const kept = events ? record : { ...record, events: [] };
      if (history) all.push(kept);
      else latest.set(record.id, kept);
    },
  });
  return { reader, records: () => (history ? all : [...latest.values()]) };
}

/** The latest record per id from the whole text of a `samples.jsonl` file (see `latestRecords`). */
export function readLatestRecords({ text, file }: { text: string; file: string }): SampleRecord[] {
  const { reader, records } = latestRecords({ file, events: true });
  reader.feed(text);
  reader.end();
  return records();
}
/**
 * The same, streamed from a file line by line, so a file far larger than the longest string
 * Node can hold (a full PrivAct tree build) can be read; `events: false` keeps memory
 * proportional to scores and outputs. `history: true` returns every valid line's record in file
 * order instead of the latest per id.
 */
export async function readLatestRecordsFromFile({
  file,
  events = true,
  history = false,
}: {
  file: string;
  events?: boolean;
  history?: boolean;
}): Promise<SampleRecord[]> {
  const { reader, records } = latestRecords({ file, events, history });
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    reader.feed(String(chunk));
  }
  reader.end();
  return records();
}

/**
 * Every valid record of a `samples.jsonl` file in file order, streamed line by line and handed to
 * `visit` without being kept (the same contract as `readLatestRecordsFromFile`); `events: false`
 * drops each record's events before `visit` sees it.
 */
export async function scanRecordsFromFile({
  file,
  events = true,
  visit,
}: {
  file: string;
  events?: boolean;
  visit: (record: SampleRecord) => void;
}): Promise<void> {
  const reader = createJsonLinesReader({
    parse: events ? parseRecordLine : parseRecordLineWithoutEvents,
    malformed: ({ line, reason }) => new StoreFormatError(`malformed record in ${file} at line ${line}: ${reason}`),
    onValue: (record: SampleRecord) => visit(events ? record : { ...record, events: [] }),
  });
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    reader.feed(String(chunk));
  }
  reader.end();
}

/**
 * Parses one `samples.jsonl` line, resolving the references of a line that stores repeated texts
 * once (`resolveRecordRefs`); the failure reason is short so error messages stay readable. Every
 * reader of `samples.jsonl` (store, viewer, torn-tail repair) parses lines here.
 */
export function parseRecordLine(line: string): JsonLineParse<SampleRecord> {
  return parseJsonLine({ line, schema: sampleRecordSchema, what: 'a sample record', prepare: resolveRecordRefs });
}

/**
 * Parses one line for a reader that drops events (`events: false`): the record must still have an
 * `events` array, but its events are dropped before validation, so a summary or resume pass does
 * not check (then throw away) every event of every record. A full read still checks them.
 */
export function parseRecordLineWithoutEvents(line: string): JsonLineParse<SampleRecord> {
  return parseJsonLine({ line, schema: sampleRecordSchema, what: 'a sample record', prepare: withoutEvents });
}

function withoutEvents(parsed: unknown): unknown {
  // References are resolved first: a text kept outside the events may be stored in one of them.
  const json = resolveRecordRefs(parsed);
  if (typeof json !== 'object' || json === null || !Array.isArray((json as { events?: unknown }).events)) return json;
  return { ...json, events: [] };
}
