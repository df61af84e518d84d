/** What {@link readJsonPath} found: the value, or where the path stopped. */
export type JsonPathValue = { found: true; value: unknown } | { found: false; missing: string };

/**
 * The value at a dot-separated path of a parsed JSON document (`offer.items.0.price`): each part
 * is a property name of an object or a 0-based index of a list. The empty path is the whole
 * document. `missing` names the first part that was not there (`offer.items.3`).
 */
export function readJsonPath({ document, path }: { document: unknown; path: string }): JsonPathValue {
  if (path === '') return { found: true, value: document };
  let value: unknown = document;
  const parts = path.split('.');
  for (const [position, part] of parts.entries()) {
    const here = parts.slice(0, position + 1).join('.');
    if (Array.isArray(value)) {
      if (!/^\d+$/.test(part) || Number(part) >= value.length) return { found: false, missing: here };
      value = value[Number(part)];
    } else if (value !== null && typeof value === 'object' && Object.hasOwn(value, part)) {
      value = (value as Record<string, unknown>)[part];
    } else {
      return { found: false, missing: here };
    }
  }
  return { found: true, value };
}
