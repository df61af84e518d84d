import type { ZodType } from 'zod';

/** A JSON object found in a reply, with the exact text it was parsed from. */
export type ExtractedJsonObject = { value: Record<string, unknown>; source: string };

const FENCED_BLOCK = /```[ \t]*(?:json5?|jsonc|JSON)?[ \t]*\r?\n([\s\S]*?)```/g;

/**
 * Finds the first JSON object in a model reply. Fenced code blocks (```json … ``` or plain
 * ```) are searched first, in order, because models that fence their answer often mention
 * braces in the surrounding prose; then the whole text is searched. Within a text, each `{` is
 * tried in order: the balanced span up to its matching `}` (string- and escape-aware) must parse
 * with `JSON.parse` as a plain object (not an array or scalar). Returns `null` when none does.
 */
export function extractJsonObject(text: string): ExtractedJsonObject | null {
  for (const block of text.matchAll(FENCED_BLOCK)) {
    const found = firstObjectIn(block[1] ?? '');
    if (found !== null) return found;
  }
  return firstObjectIn(text);
}

/**
 * How a reply parsed against a zod schema: the value (with the JSON text it came from), or why
 * not: `no-json-object` when {@link extractJsonObject} finds none, `wrong-shape` with the zod
 * issues (`path: message`, `(root)` for the top level) when the object does not fit the schema.
 * Callers word the problem themselves, so records keep their own messages.
 */
export type StructuredReplyParse<T> =
  | { ok: true; value: T; source: string }
  | { ok: false; problem: 'no-json-object' }
  | { ok: false; problem: 'wrong-shape'; issues: string[] };

/**
 * The one structured-reply parser: the first JSON object of `text` (see {@link extractJsonObject}),
 * validated by `schema`. `text` is what the caller wants parsed (normally the reply's visible
 * text, reasoning already taken out by the model middleware).
 */
export function parseStructuredReply<T>({
  text,
  schema,
}: {
  text: string;
  schema: ZodType<T>;
}): StructuredReplyParse<T> {
  const found = extractJsonObject(text);
  if (found === null) return { ok: false, problem: 'no-json-object' };
  const checked = schema.safeParse(found.value);
  if (checked.success) return { ok: true, value: checked.data, source: found.source };
  return {
    ok: false,
    problem: 'wrong-shape',
    issues: checked.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
  };
}

function firstObjectIn(text: string): ExtractedJsonObject | null {
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    const end = closingBraceIndex({ text, start });
    if (end === -1) continue;
    const source = text.slice(start, end + 1);
    try {
      const value: unknown = JSON.parse(source);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        return { value: value as Record<string, unknown>, source };
      }
    } catch {
      // not JSON: try the next opening brace
    }
  }
  return null;
}

/** Index of the `}` closing the `{` at `start`, ignoring braces inside JSON strings; -1 if unbalanced. */
export function closingBraceIndex({ text, start }: { text: string; start: number }): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return -1;
}
