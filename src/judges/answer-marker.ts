/** The answer-line marker used when a template names none. */
export const DEFAULT_ANSWER_MARKER = 'Answer:';

/**
 * Line breaks a reader (human or model) may take as a new line. Both the answer-line parser
 * and `neutralize` split on this set, so they agree on what "the start of a line" is.
 */
export const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;

/** Splits text into lines on every break in `LINE_BREAK`. */
export function splitLines(text: string): string[] {
  return text.split(LINE_BREAK);
}

const EMPHASIS_CHARS = '*_`';
const patternCache = new Map<string, RegExp | null>();

function markerPattern(marker: string): RegExp | null {
  const cached = patternCache.get(marker);
  if (cached !== undefined) return cached;
  const wanted = [...marker.trim()].filter((char) => !EMPHASIS_CHARS.includes(char));
  let pattern: RegExp | null = null;
  if (wanted.length > 0) {
    // Emphasis may wrap or split the marker (`**Answer:**`, `**Answer**:`), so it is allowed
    // between any two of its characters; a marker ending in a letter must end a word.
    const body = wanted.map((char) => escapeRegExp(char)).join('[*_`]*');
    const wordEnd = /[\p{L}\p{N}]$/u.test(wanted.join('')) ? '(?![\\p{L}\\p{N}])' : '';
    pattern = new RegExp(`^[\\s>#*_\`-]*${body}${wordEnd}`, 'iu');
  }
  patternCache.set(marker, pattern);
  return pattern;
}

/**
 * If `line` starts with `marker` (case-insensitive, after optional Markdown decoration such as
 * indentation, `### `, `> `, `- ` or emphasis like `**Answer:**`), returns the text after the
 * marker with surrounding blanks and emphasis characters trimmed; otherwise `null`.
 *
 * This is the single definition of "a marker line": the answer-line parser uses it to find the
 * answer, and `neutralize` uses it to defuse lookalike lines in untrusted text, so anything the
 * parser would read as an answer is exactly what `neutralize` rewrites.
 */
export function matchAnswerMarker({ line, marker }: { line: string; marker: string }): string | null {
  const pattern = markerPattern(marker);
  if (pattern === null) return null;
  const match = pattern.exec(line);
  if (match === null) return null;
  return line.slice(match[0].length).replace(/^[\s*_`]+|[\s*_`]+$/g, '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
