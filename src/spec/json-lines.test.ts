import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createJsonLinesReader, parseJsonLine, readJsonLines } from './json-lines.js';

const schema = z.object({ n: z.number() });
const parse = (line: string) => parseJsonLine({ line, schema, what: 'a counter' });
const malformed = ({ line, reason }: { line: number; reason: string }) => new Error(`line ${line}: ${reason}`);

describe('JSON lines', () => {
  it('reads complete lines, skips blank ones and keeps a torn tail only when it parses whole', () => {
    expect(readJsonLines({ text: '{"n":1}\n\n{"n":2}\n{"n":3}', parse, malformed })).toEqual([
      { n: 1 },
      { n: 2 },
      { n: 3 },
    ]);
    expect(readJsonLines({ text: '{"n":1}\n{"n":', parse, malformed })).toEqual([{ n: 1 }]);
  });

  it('names the 1-based line and the reason of a malformed complete line', () => {
    expect(() => readJsonLines({ text: '{"n":1}\n{"n":"x"}\n', parse, malformed })).toThrow(
      'line 2: not a counter at n: Invalid input: expected number, received string',
    );
    expect(() => readJsonLines({ text: 'oops\n', parse, malformed })).toThrow(/^line 1: not JSON \(/);
  });

  it('a prepare step that throws makes the line invalid, its message the reason', () => {
    const prepare = (json: unknown) => {
      if ((json as { n?: unknown }).n === 0) throw new Error('zero is not a count');
      return json;
    };
    expect(parseJsonLine({ line: '{"n":0}', schema, what: 'a counter', prepare })).toEqual({
      ok: false,
      reason: 'not a counter: zero is not a count',
    });
    expect(parseJsonLine({ line: '{"n":2}', schema, what: 'a counter', prepare })).toEqual({
      ok: true,
      value: { n: 2 },
    });
  });

  it('joins lines split across chunks', () => {
    const values: unknown[] = [];
    const reader = createJsonLinesReader({ parse, malformed, onValue: (value) => values.push(value) });
    reader.feed('{"n":');
    reader.feed('4}\n{"n"');
    reader.feed(':5}');
    reader.end();
    expect(values).toEqual([{ n: 4 }, { n: 5 }]);
  });
});
