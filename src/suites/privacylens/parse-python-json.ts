const NON_FINITE = /^(?:-?Infinity|NaN)/;

/**
 * Parses JSON written by Python's `json.dump`, which emits the bare tokens `NaN`, `Infinity` and
 * `-Infinity` for non-finite floats (the CultureBank subset has `"goal": NaN`). Those tokens,
 * outside strings only, are read as `null`; everything else must be strict JSON. Throws the
 * `SyntaxError` of `JSON.parse` for anything else that is malformed.
 */
export function parsePythonJson(text: string): unknown {
  let result = '';
  let copiedUpTo = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') {
      inString = true;
      continue;
    }
    if (char !== 'N' && char !== 'I' && char !== '-') continue;
    const token = NON_FINITE.exec(text.slice(index, index + 9));
    if (token === null) continue;
    result += `${text.slice(copiedUpTo, index)}null`;
    index += token[0].length - 1;
    copiedUpTo = index + 1;
  }
  return JSON.parse(result + text.slice(copiedUpTo));
}
