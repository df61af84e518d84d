import { createReadStream } from 'node:fs';
import { StoreFormatError } from '../spec/errors.js';
import { type SampleRecord, sampleRecordSchema } from '../spec/run-record.js';

/**
 * Collects the latest record per sample id, in first-seen order, from the lines of a
 * `samples.jsonl` file fed one by one.
 *
 * Contract: every complete line (one ending in `\n`) must be a valid record, otherwise a
 * `StoreFormatError` names `file` and the 1-based line. A final line without `\n` is a write the
 * process did not finish (a crash mid-append): it is kept if it parses as a whole record and
 * ignored otherwise. Blank lines are skipped. Later lines win over earlier lines with the same id,
 * because records are never rewritten in place. With `events: false` each record's events are
 * dropped as soon as it is parsed.
 */
function latestRecords({ file, events, history = false }: { file: string; events: boolean; history?: boolean }) {
  const latest = new Map<string, SampleRecord>();
  const all: SampleRecord[] = [];
  let lineNumber = 0;
  const keep = (record: SampleRecord) => {
    const kept = events ? record : { ...record, events: [] };
    if (history) all.push(kept);
    else latest.set(record.id, kept);
  };
  return {
    line(line: string) {
      lineNumber += 1;
      if (line.trim() === '') return;
      const record = parseRecordLine(line);
      if (!record.ok) throw new StoreFormatError(`malformed record in ${file} at line ${lineNumber}: ${record.reason}`);
      keep(record.value);
    },
    tornTail(tail: string) {
      if (tail.trim() === '') return;
      const record = parseRecordLine(tail);
      if (record.ok) keep(record.value);
    },
    records: () => (history ? all : [...latest.values()]),
  };
}

/** The latest record per id from the whole text of a `samples.jsonl` file (see `latestRecords`). */
export function readLatestRecords({ text, file }: { text: string; file: string }): SampleRecord[] {
  const reader = latestRecords({ file, events: true });
  const lines = text.split('\n');
  // `split` leaves the text after the last newline as the final element ('' for a clean file).
  const tail = lines.pop() ?? '';
  for (const line of lines) reader.line(line);
  reader.tornTail(tail);
  return reader.records();
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
  const reader = latestRecords({ file, events, history });
  let pending = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const parts = `${pending}${String(chunk)}`.split('\n');
    pending = parts.pop() ?? '';
    for (const line of parts) reader.line(line);
  }
  reader.tornTail(pending);
  return reader.records();
}

/** Parses one line; the failure reason is short so error messages stay readable. */
export function parseRecordLine(line: string): { ok: true; value: SampleRecord } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    return { ok: false, reason: `not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const parsed = sampleRecordSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    return { ok: false, reason: `not a sample record${where}: ${issue?.message ?? 'invalid'}` };
  }
  return { ok: true, value: parsed.data };
}
