/** Returns one shared instance for equal JSON values (see `createValueSharer`). */
export type ValueSharer = <T>(value: T) => T;

/**
 * Makes equal JSON values one value. A large run's summary keeps a view of every sample's latest
 * record, and most of what a view holds repeats from sample to sample: the variant, the scorer's
 * verdict and target, the usage of a call, the output's labels, the status. Parsed from
 * `samples.jsonl`, each repeat is its own copy; shared, 20,000 ConfAIde views drop from about
 * 1 KB to a few hundred bytes each.
 *
 * Strings are shared as they are (they are immutable). Objects and arrays are keyed by their JSON
 * text and the shared instance is deep-frozen, so code that reads records (metrics) can never
 * change one sample's value through another's. Values are equal when their JSON text is (an
 * `undefined` member counts as absent, as in the file); one JSON cannot hold (a cycle, a BigInt)
 * is returned as it is. At most `maxEntries` distinct values are
 * remembered: past that, values already known are still shared and new ones are kept unshared,
 * so a run whose values never repeat costs a bounded table, not a second copy of everything.
 */
export function createValueSharer({ maxEntries = 8192 }: { maxEntries?: number } = {}): ValueSharer {
  const strings = new Map<string, string>();
  const objects = new Map<string, unknown>();
  const shareString = (text: string): string => {
    const known = strings.get(text);
    if (known !== undefined) return known;
    if (strings.size < maxEntries) strings.set(text, text);
    return text;
  };
  return <T>(value: T): T => {
    if (typeof value === 'string') return shareString(value) as T;
    if (typeof value !== 'object' || value === null) return value;
    let key: string | undefined;
    try {
      key = JSON.stringify(value);
    } catch {
      return value;
    }
    const known = objects.get(key);
    if (known !== undefined) return known as T;
    if (objects.size >= maxEntries) return value;
    // The shared instance is rebuilt from the key: it holds exactly what the key says, and the
    // caller's own object is never frozen.
    const shared = deepFreeze(JSON.parse(key) as unknown);
    objects.set(key, shared);
    return shared as T;
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  for (const member of Object.values(value)) deepFreeze(member);
  return Object.freeze(value);
}
