import { StoreFormatError } from '../spec/errors.js';
import { type SampleRecord, sampleRecordSchema } from '../spec/run-record.js';

/**
 * Parses the text of a `samples.jsonl` file into the latest record per sample id, in first-seen order.
 *
 * Contract: every complete line (one ending in `\n`) must be a valid record, otherwise a
 * `StoreFormatError` names `file` and the 1-based line. A final line without `\n` is a write the
 * process did not finish (a crash mid-append): it is kept if it parses as a whole record and
 * ignored otherwise. Blank lines are skipped. Later lines win over earlier lines with the same id,
 * because records are never rewritten in place.
 */
export function readLatestRecords({ text, file }: { text: string; file: string }): SampleRecord[] {
  const latest = new Map<string, SampleRecord>();
  const lines = text.split('\n');
  // `split` leaves the text after the last newline as the final element ('' for a clean file).
  const tornTail = lines.pop() ?? '';
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const record = parseRecordLine(line);
    if (!record.ok) {
      throw new StoreFormatError(`malformed record in ${file} at line ${index + 1}: ${record.reason}`);
    }
    latest.set(record.value.id, record.value);
  });
  if (tornTail.trim() !== '') {
    const record = parseRecordLine(tornTail);
    if (record.ok) latest.set(record.value.id, record.value);
  }
  return [...latest.values()];
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
