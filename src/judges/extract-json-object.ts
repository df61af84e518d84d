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

function firstObjectIn(text: string): ExtractedJsonObject | null {
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    const end = matchingBrace(text, start);
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
function matchingBrace(text: string, start: number): number {
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
