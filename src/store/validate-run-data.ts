import { StoreFormatError } from '../spec/errors.js';

/** The part of a zod schema the store needs (kept structural so any zod schema fits). */
export type RunDataSchema<T> = {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } };
};

function describeIssue(issues: Array<{ path: PropertyKey[]; message: string }>): string {
  const issue = issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.length > 0 ? ` at ${issue.path.map(String).join('.')}` : '';
  return `${issue.message}${where}`;
}

/** Validates JSON read from `file`; a mismatch is a `StoreFormatError` that names the file. */
export function parseWithSchema<T>({
  schema,
  json,
  file,
}: {
  schema: RunDataSchema<T>;
  json: unknown;
  file: string;
}): T {
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new StoreFormatError(`${file} does not match the run format: ${describeIssue(parsed.error.issues)}`);
  }
  return parsed.data;
}

/**
 * Validates a value before it is stored and returns the parsed copy. Stores refuse to write
 * what they could not read back; a failure is a programming error (TypeError), not a user's.
 */
export function validateForWrite<T>({ schema, value, what }: { schema: RunDataSchema<T>; value: T; what: string }): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new TypeError(`refusing to store an invalid ${what}: ${describeIssue(parsed.error.issues)}`);
  }
  return parsed.data;
}

/**
 * How a store treats the sample records it is given. `validate: true` checks each one against the
 * run format before it is written (a failure is a `TypeError` and nothing is stored); by default
 * they are written as given, since the runner builds them in typed code and checks what user code
 * returned. Headers and summaries are always checked (one each per run).
 */
export type StoreWriteOptions = { validate?: boolean };
