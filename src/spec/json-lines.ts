import type { ZodType } from 'zod';

/** One line parsed, or a short reason why it is not a valid line (kept short for error messages). */
export type JsonLineParse<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * Parses one JSON line and validates it with `schema`; `what` names a valid line in the reason
 * (`not JSON (…)`, `not <what> at <path>: <message>`).
 */
export function parseJsonLine<T>({
  line,
  schema,
  what,
  prepare,
}: {
  line: string;
  schema: ZodType<T>;
  what: string;
  /**
   * Applied to the parsed JSON before it is validated (e.g. to drop a part the reader will not
   * keep); an error it throws makes the line invalid, its message the reason.
   */
  prepare?: (json: unknown) => unknown;
}): JsonLineParse<T> {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    return { ok: false, reason: `not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (prepare !== undefined) {
    try {
      json = prepare(json);
    } catch (error) {
      return { ok: false, reason: `not ${what}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    return { ok: false, reason: `not ${what}${where}: ${issue?.message ?? 'invalid'}` };
  }
  return { ok: true, value: parsed.data };
}

/** What a {@link createJsonLinesReader} is fed: chunks of text in order, then the end. */
export type JsonLinesReader = {
  /** Reads the complete lines of `chunk` (with what was left over from the previous chunk). */
  feed(chunk: string): void;
  /** Reads the text after the last newline, the torn tail. */
  end(): void;
};

/**
 * The append-only JSON-lines contract shared by the run store's `samples.jsonl` and the
 * generation journals. Every complete line (one ending in `\n`) must parse, otherwise `malformed`
 * builds the error to throw from the 1-based line number and the reason. A final line without `\n`
 * is a write the process did not finish (a crash mid-append): it is kept if it parses as a whole
 * line and ignored otherwise. Blank lines are skipped. Values go to `onValue` in file order.
 */
export function createJsonLinesReader<T>({
  parse,
  malformed,
  onValue,
}: {
  parse: (line: string) => JsonLineParse<T>;
  malformed: (options: { line: number; reason: string }) => Error;
  onValue: (value: T) => void;
}): JsonLinesReader {
  let pending = '';
  let lineNumber = 0;
  return {
    feed(chunk) {
      const parts = `${pending}${chunk}`.split('\n');
      pending = parts.pop() ?? '';
      for (const line of parts) {
        lineNumber += 1;
        if (line.trim() === '') continue;
        const parsed = parse(line);
        if (!parsed.ok) throw malformed({ line: lineNumber, reason: parsed.reason });
        onValue(parsed.value);
      }
    },
    end() {
      const tail = pending;
      pending = '';
      if (tail.trim() === '') return;
      const parsed = parse(tail);
      if (parsed.ok) onValue(parsed.value);
    },
  };
}

/** Every valid line of a whole JSON-lines text, in order (see {@link createJsonLinesReader}). */
export function readJsonLines<T>({
  text,
  parse,
  malformed,
}: {
  text: string;
  parse: (line: string) => JsonLineParse<T>;
  malformed: (options: { line: number; reason: string }) => Error;
}): T[] {
  const values: T[] = [];
  const reader = createJsonLinesReader({ parse, malformed, onValue: (value) => values.push(value) });
  reader.feed(text);
  reader.end();
  return values;
}
