/** Any character outside Latin-1: a string holding one needs two bytes per character. */
const BEYOND_LATIN1 = /[\u0100-\uffff]/;

/**
 * Re-makes, in place, every string in `value` (plain objects and arrays, walked down) that holds
 * only Latin-1 characters as a fresh one-byte string, and returns `value` (a new string when
 * `value` is one). The text is unchanged; only how V8 stores it is.
 *
 * Why: a file read as UTF-8 becomes one two-byte string as soon as a single character in it lies
 * beyond Latin-1 (a curly quote is enough), and every slice of it stays two-byte, even a pure ASCII
 * one. A scenario parsed from such a file then makes every prompt built from it two-byte, and so
 * every JSON text it goes into (the request body, the `samples.jsonl` line, once JSON meets one
 * two-byte string the rest of its output is two-byte), every hash and every UTF-8 encoding of it
 * costs more, once per sample. Slices also keep the whole file alive; the copies do not.
 */
export function oneByteStrings<T>(value: T): T {
  return compact(value, 0) as T;
}

const MAX_DEPTH = 64;

function compact(value: unknown, depth: number): unknown {
  if (typeof value === 'string')
    return BEYOND_LATIN1.test(value) ? value : Buffer.from(value, 'latin1').toString('latin1');
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) value[index] = compact(value[index], depth + 1);
    return value;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const member = record[key];
    // Assigned even when equal: the new string compares equal to the old one, it is only stored differently.
    if (typeof member === 'string') record[key] = compact(member, depth + 1);
    else if (typeof member === 'object' && member !== null) compact(member, depth + 1);
  }
  return value;
}
