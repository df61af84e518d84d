/**
 * The text of one `samples.jsonl` line, with each long text stored once.
 *
 * A sample record repeats its texts: the prompt is in `input` and in the model call's request,
 * the answer in `output`, in the transcript and in the model call's response, a judge's prompt in
 * its `judge-call` event and in the judge's model call. {@link encodeRecordLine} keeps each string
 * of at least {@link MIN_SHARED_LENGTH} characters at its first occurrence (in the order the line
 * is written) and turns each later occurrence into a reference:
 *
 * - the later string is replaced by a JSON Pointer (RFC 6901) to the first occurrence, e.g.
 *   `"/input/messages/0/content"`;
 * - the record gains a top-level `"$refs"` array listing, as JSON Pointers, every string so
 *   replaced (its last key, so the rest of the line reads as before).
 *
 * Only the `$refs` list says what is a reference, so user data of any shape (a suite output
 * holding strings that look like pointers, or objects that look like anything) needs no escaping,
 * and a line without `$refs` (every line written before this format, and every record without a
 * repeated long text) is plain JSON, byte for byte `JSON.stringify(record)`. References point
 * within their own line, so copying whole lines between files (merge, shards) keeps them valid.
 * {@link resolveRecordRefs} undoes it on the parsed JSON; the store's line parser calls it, so every
 * reader sees whole records.
 */

/** Strings shorter than this are written as they are, however often they repeat. */
export const MIN_SHARED_LENGTH = 64;
/** The top-level key listing the references of an encoded line. */
export const RECORD_REFS_KEY = '$refs';

type Container = Record<string, unknown> | unknown[];
type Key = string | number;
/** A later occurrence: the containers from the root down to its parent, the keys, and where its text is. */
type Repeat = { containers: Container[]; keys: Key[]; target: string; source: string };
/**
 * The walk over one record: the containers from the root down to the one being walked and the key
 * of the child being visited in each (`depth` of them are current; the arrays are reused as the
 * walk goes deeper and back), the long texts seen so far with their pointers, and the repeats found.
 */
type Scan = {
  containers: Container[];
  keys: Key[];
  depth: number;
  seen: Seen[];
  /** The long texts by length, once there are more than {@link LISTED_TEXTS} of them. */
  byLength: Map<number, Seen[]> | undefined;
  repeats: Repeat[] | undefined;
};
type Seen = { text: string; pointer: string };
/** Up to this many long texts are kept in a list, searched by length first; more go in a map by length. */
const LISTED_TEXTS = 16;

/**
 * The line for `record` (without its newline): `JSON.stringify(record)` when no long string
 * repeats, otherwise the record with later occurrences replaced by references and `$refs` added
 * (see the module comment). `record` is not modified.
 */
export function encodeRecordLine(record: object): string {
  if (Object.hasOwn(record, RECORD_REFS_KEY)) {
    throw new TypeError(`a sample record cannot have a top-level ${JSON.stringify(RECORD_REFS_KEY)} key`);
  }
  const scan: Scan = { containers: [], keys: [], depth: 0, seen: [], byLength: undefined, repeats: undefined };
  try {
    visitContainer(scan, record as Container);
  } catch {
    // Whatever stopped the walk (a cycle, a throwing getter) stops JSON.stringify too, which says it best.
    return JSON.stringify(record);
  }
  if (scan.repeats === undefined) return JSON.stringify(record);
  return JSON.stringify(withReferences({ record, repeats: scan.repeats }));
}

/**
 * Walks a container in the order `JSON.stringify` writes it, noting each long text and each later
 * occurrence worth replacing. One plain function with its state passed in (no closures, no path
 * copies but for a repeat), since it runs over every record a run writes.
 */
function visitContainer(scan: Scan, value: Container): void {
  // An object with toJSON is written as whatever it returns: left as it is, never looked into.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return;
  const { depth } = scan;
  scan.containers[depth] = value;
  scan.depth = depth + 1;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const child: unknown = value[index];
      if (typeof child === 'string') {
        if (child.length < MIN_SHARED_LENGTH) continue;
        scan.keys[depth] = index;
        visitString(scan, child);
      } else if (typeof child === 'object' && child !== null) {
        scan.keys[depth] = index;
        visitContainer(scan, child as Container);
      }
    }
  } else {
    const keys = Object.keys(value);
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index]!;
      const child: unknown = value[key];
      if (typeof child === 'string') {
        if (child.length < MIN_SHARED_LENGTH) continue;
        scan.keys[depth] = key;
        visitString(scan, child);
      } else if (typeof child === 'object' && child !== null) {
        scan.keys[depth] = key;
        visitContainer(scan, child as Container);
      }
    }
  }
  scan.depth = depth;
}

/** Notes a long text: its first occurrence is kept, a later one becomes a repeat when its reference is shorter. */
function visitString(scan: Scan, text: string): void {
  const { keys, depth } = scan;
  const source = firstOccurrence(scan, text);
  const target = pointerOf(keys, depth);
  if (source === undefined) {
    addFirstOccurrence(scan, { text, pointer: target });
    return;
  }
  // A reference costs its pointer in place and its entry in `$refs`: only worth it when shorter.
  if (source.length + target.length + 6 >= text.length) return;
  const repeat = { containers: scan.containers.slice(0, depth), keys: keys.slice(0, depth), target, source };
  if (scan.repeats === undefined) scan.repeats = [repeat];
  else scan.repeats.push(repeat);
}

/**
 * The pointer of the first occurrence of `text`, if it was seen. Texts are compared by length
 * first: hashing each long string (often a rope the runner built by concatenation) would cost more
 * than the whole walk, and a record holds a handful of them, so a list beats a map until it grows.
 */
function firstOccurrence(scan: Scan, text: string): string | undefined {
  const { length } = text;
  const candidates = scan.byLength === undefined ? scan.seen : scan.byLength.get(length);
  if (candidates === undefined) return undefined;
  for (let index = 0; index < candidates.length; index += 1) {
    const entry = candidates[index]!;
    if (entry.text.length === length && entry.text === text) return entry.pointer;
  }
  return undefined;
}

function addFirstOccurrence(scan: Scan, entry: Seen): void {
  if (scan.byLength === undefined) {
    scan.seen.push(entry);
    if (scan.seen.length <= LISTED_TEXTS) return;
    scan.byLength = new Map();
    for (const seen of scan.seen) addFirstOccurrence(scan, seen);
    return;
  }
  const sameLength = scan.byLength.get(entry.text.length);
  if (sameLength === undefined) scan.byLength.set(entry.text.length, [entry]);
  else sameLength.push(entry);
}

/** A shallow copy of `record` with each repeat replaced by its source pointer, copying only the containers on the way. */
function withReferences({ record, repeats }: { record: object; repeats: Repeat[] }): Record<string, unknown> {
  const root: Record<string, unknown> = { ...record };
  for (const { containers, keys, source } of repeats) {
    let parent: Container = root;
    for (let depth = 0; depth < keys.length - 1; depth += 1) {
      const key = keys[depth]!;
      const original = containers[depth + 1]!;
      let child = (parent as Record<string | number, unknown>)[key] as Container;
      // The parent is a copy made for this path; its child is copied once, on the first repeat below it.
      if (child === original) {
        child = Array.isArray(original) ? original.slice() : { ...original };
        setOwn(parent, key, child);
      }
      parent = child;
    }
    setOwn(parent, keys[keys.length - 1]!, source);
  }
  root[RECORD_REFS_KEY] = repeats.map((repeat) => repeat.target);
  return root;
}

/**
 * Resolves the references of a parsed `samples.jsonl` line in place and returns it: each string
 * listed in `$refs` is replaced by the text its pointer names, and `$refs` is removed. JSON without
 * `$refs` is returned unchanged. A malformed `$refs` (not a list of pointers to strings, or a
 * pointer to another reference) throws an `Error` saying which.
 */
export function resolveRecordRefs(json: unknown): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json) || !Object.hasOwn(json, RECORD_REFS_KEY)) {
    return json;
  }
  const root = json as Record<string, unknown>;
  const refs = root[RECORD_REFS_KEY];
  delete root[RECORD_REFS_KEY];
  if (!Array.isArray(refs) || !refs.every((ref) => typeof ref === 'string')) {
    throw new Error(`${RECORD_REFS_KEY} is not a list of JSON Pointers`);
  }
  const targets = new Set<string>(refs);
  const resolved: Array<{ parent: Container; key: string | number; text: string }> = [];
  for (const target of refs) {
    const at = locate(root, target);
    const source = at === undefined ? undefined : at.parent[at.key as never];
    if (at === undefined || typeof source !== 'string') {
      throw new Error(`${RECORD_REFS_KEY} names ${target}, which is not a string`);
    }
    const from = targets.has(source) ? undefined : locate(root, source);
    const text = from === undefined ? undefined : from.parent[from.key as never];
    if (typeof text !== 'string') {
      throw new Error(`the reference at ${target} names ${source}, which is not a stored text`);
    }
    resolved.push({ parent: at.parent, key: at.key, text });
  }
  // Every pointer is followed before any text is put in, so no reference can resolve through another.
  for (const { parent, key, text } of resolved) setOwn(parent, key, text);
  return root;
}

/** The JSON Pointer of a path of keys (`~` and `/` in keys escaped as `~0` and `~1`). */
function pointerOf(keys: readonly Key[], depth: number): string {
  let pointer = '';
  for (let index = 0; index < depth; index += 1) {
    const key = keys[index]!;
    if (typeof key === 'number') pointer += `/${key}`;
    else if (key.includes('~') || key.includes('/')) pointer += `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    else pointer += `/${key}`;
  }
  return pointer;
}

/** The container and key a JSON Pointer names inside `root`, or undefined when it names nothing. */
function locate(root: Container, pointer: string): { parent: Container; key: string | number } | undefined {
  if (!pointer.startsWith('/')) return undefined;
  const segments = pointer.slice(1).split('/');
  let parent: Container = root;
  for (let depth = 0; ; depth += 1) {
    const raw = segments[depth]!;
    const segment = raw.includes('~') ? raw.replaceAll('~1', '/').replaceAll('~0', '~') : raw;
    let key: string | number;
    if (Array.isArray(parent)) {
      // Only the canonical form of an index (no sign, no leading zero) names an element.
      const index = Number(segment);
      if (!Number.isInteger(index) || index < 0 || index >= parent.length || String(index) !== segment)
        return undefined;
      key = index;
    } else {
      if (!Object.hasOwn(parent, segment)) return undefined;
      key = segment;
    }
    if (depth === segments.length - 1) return { parent, key };
    const child: unknown = (parent as Record<string | number, unknown>)[key];
    if (typeof child !== 'object' || child === null) return undefined;
    parent = child as Container;
  }
}

/** Sets an own property, also for a key such as `__proto__` that plain assignment would not make own. */
function setOwn(container: Container, key: string | number, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    (container as Record<string | number, unknown>)[key] = value;
  }
}
