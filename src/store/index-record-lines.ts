import { createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { StoreFormatError } from '../spec/errors.js';
import { parseRecordLine } from './read-latest-records.js';

/** Where one valid record sits in a `samples.jsonl` file, in bytes; `newline: false` for a torn last line. */
export type RecordLine = { id: string; offset: number; length: number; newline: boolean };

const NEWLINE = 0x0a;

/**
 * Every valid record line of a `samples.jsonl` file in file order, as its id and byte range, read
 * in one streaming pass by the same contract as `readSamples({ history: true })`: each line is
 * parsed and validated (`parseRecordLine`), a malformed complete line is a `StoreFormatError`
 * naming the file and the 1-based line, blank lines are skipped, and a last line without a newline
 * is kept only when it parses as a whole record. Only the ids and offsets are kept, so a merge can
 * copy a run of any size line by line (`readRecordLine`).
 */
export async function indexRecordLines({ file }: { file: string }): Promise<RecordLine[]> {
  const lines: RecordLine[] = [];
  let lineNumber = 0;
  const take = ({ bytes, offset, newline }: { bytes: Buffer; offset: number; newline: boolean }) => {
    const text = bytes.toString('utf8');
    if (text.trim() === '') return;
    const parsed = parseRecordLine(text);
    if (parsed.ok) lines.push({ id: parsed.value.id, offset, length: bytes.length, newline });
    else if (newline) {
      throw new StoreFormatError(`malformed record in ${file} at line ${lineNumber}: ${parsed.reason}`);
    }
  };
  let carry = Buffer.alloc(0);
  let carryOffset = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    const data = carry.length === 0 ? (chunk as Buffer) : Buffer.concat([carry, chunk as Buffer]);
    let start = 0;
    for (let end = data.indexOf(NEWLINE, start); end !== -1; end = data.indexOf(NEWLINE, start)) {
      lineNumber += 1;
      take({ bytes: data.subarray(start, end), offset: carryOffset + start, newline: true });
      start = end + 1;
    }
    carryOffset += start;
    // Copied, so the chunk behind a long torn line is not kept alive by a view of it.
    carry = Buffer.from(data.subarray(start));
  }
  if (carry.length > 0) {
    lineNumber += 1;
    take({ bytes: carry, offset: carryOffset, newline: false });
  }
  return lines;
}

/** The text of one indexed line from an open `samples.jsonl`, always ending in a newline. */
export async function readRecordLine({ handle, line }: { handle: FileHandle; line: RecordLine }): Promise<string> {
  const bytes = Buffer.alloc(line.length);
  let read = 0;
  while (read < line.length) {
    const { bytesRead } = await handle.read(bytes, read, line.length - read, line.offset + read);
    if (bytesRead === 0) throw new StoreFormatError(`record line at byte ${line.offset} was cut short`);
    read += bytesRead;
  }
  return `${bytes.toString('utf8')}\n`;
}

/** Opens a `samples.jsonl` for `readRecordLine`. */
export function openRecordLines(file: string): Promise<FileHandle> {
  return open(file, 'r');
}
