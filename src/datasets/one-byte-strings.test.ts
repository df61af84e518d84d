import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { oneByteStrings } from './one-byte-strings.js';

/** How V8 stores a string, as its serializer tells: tag `"` for one byte per character, `c` for two. */
const storage = (text: string) => (serialize(text)[2] === 0x22 ? 'one-byte' : 'two-byte');

// A pure ASCII slice of a text that also holds a curly quote: two-byte, as `readFile(…, 'utf8')` gives it.
const file = `Jane’s story.\nMary told Ethan about the bonus, and nobody else.\n`;
const ascii = file.slice(file.indexOf('\n') + 1, -1);

describe('oneByteStrings', () => {
  it('re-makes Latin-1 strings one-byte, deep in plain objects and arrays, leaving the text as it was', () => {
    expect(storage(ascii)).toBe('two-byte');
    const scenario = { id: 's1', story: ascii, nested: { lines: [ascii, 'é only'] }, line: 3 };
    const compacted = oneByteStrings(scenario);
    expect(compacted).toBe(scenario);
    expect(scenario).toEqual({ id: 's1', story: ascii, nested: { lines: [ascii, 'é only'] }, line: 3 });
    expect(storage(scenario.story)).toBe('one-byte');
    expect(storage(scenario.nested.lines[0]!)).toBe('one-byte');
    expect(storage(oneByteStrings(ascii))).toBe('one-byte');
  });

  it('keeps strings beyond Latin-1 and values that are not plain data as they are', () => {
    const curly = file.slice(0, file.indexOf('\n'));
    const date = new Date(0);
    const frozen = Object.freeze({ text: ascii });
    const value = { curly, date, frozen, count: 1, none: null };
    oneByteStrings(value);
    expect(value.curly).toBe(curly);
    expect(storage(value.curly)).toBe('two-byte');
    expect(value.date).toBe(date);
    expect(storage(value.frozen.text)).toBe('two-byte');
  });
});
