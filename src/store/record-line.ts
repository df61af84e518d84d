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
/** A later occurrence: the containers from the root down to its parent, the keys, and where its text is. */
type Repeat = { containers: Container[]; keys: Array<string | number>; target: string; source: string };

/**
 * The line for `record` (without its newline): `JSON.stringify(record)` when no long string
 * repeats, otherwise the record with later occurrences replaced by references and `$refs` added
 * (see the module comment). `record` is not modified.
 */
export function encodeRecordLine(record: object): string {
  if (Object.hasOwn(record, RECORD_REFS_KEY)) {
    throw new TypeError(`a sample record cannot have a top-level ${JSON.stringify(RECORD_REFS_KEY)} key`);
  }
  let repeats: Repeat[];
  try {
    repeats = findRepeats(record);
  } catch {
    // Whatever stopped the walk (a cycle, a throwing getter) stops JSON.stringify too, which says it best.
    return JSON.stringify(record);
  }
  if (repeats.length === 0) return JSON.stringify(record);
  return JSON.stringify(withReferences({ record, repeats }));
}

/** Walks `record` in the order `JSON.stringify` writes it and lists the later occurrences worth replacing. */
function findRepeats(record: object): Repeat[] {
  // Texts seen so far, by length: a number key is cheap to look up, where hashing each long
  // string (often a rope the runner built by concatenation) costs more than the whole walk.
  const firstByLength = new Map<number, Array<{ text: string; pointer: string }>>();
  const repeats: Repeat[] = [];
  const containers: Container[] = [];
  const keys: Array<string | number> = [];

  const visitString = (text: string) => {
    const sameLength = firstByLength.get(text.length);
    const source = sameLength?.find((seen) => seen.text === text)?.pointer;
    const target = pointerOf(keys);
    if (source === undefined) {
      if (sameLength === undefined) firstByLength.set(text.length, [{ text, pointer: target }]);
      else sameLength.push({ text, pointer: target });
      return;
    }
    // A reference costs its pointer in place and its entry in `$refs`: only worth it when shorter.
    if (source.length + target.length + 6 >= text.length) return;
    repeats.push({ containers: [...containers], keys: [...keys], target, source });
  };
  const visit = (value: unknown) => {
    if (typeof value === 'string') {
      if (value.length >= MIN_SHARED_LENGTH) visitString(value);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    // An object with toJSON is written as whatever it returns: left as it is, never looked into.
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return;
    containers.push(value as Container);
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) {
        keys.push(index);
        visit(value[index]);
        keys.pop();
      }
    } else {
      for (const key of Object.keys(value)) {
        keys.push(key);
        visit((value as Record<string, unknown>)[key]);
        keys.pop();
      }
    }
    containers.pop();
  };
  visit(record);
  return repeats;
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
function pointerOf(keys: ReadonlyArray<string | number>): string {
  let pointer = '';
  for (const key of keys) {
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
