import { describe, expect, it } from 'vitest';
import { parsePythonJson } from './parse-python-json.js';

describe('parsePythonJson', () => {
  it('reads bare NaN, Infinity and -Infinity as null', () => {
    expect(parsePythonJson('{"a": NaN, "b": [Infinity, -Infinity, 1], "c": -2}')).toEqual({
      a: null,
      b: [null, null, 1],
      c: -2,
    });
  });

  it('leaves the same words inside strings alone, escaped quotes included', () => {
    expect(parsePythonJson('{"goal": "NaN \\" Infinity", "n": NaN}')).toEqual({ goal: 'NaN " Infinity', n: null });
  });

  it('is plain JSON.parse otherwise, errors included', () => {
    expect(parsePythonJson('[1, "x", {"k": true}]')).toEqual([1, 'x', { k: true }]);
    expect(() => parsePythonJson('{"a": Nope}')).toThrow(SyntaxError);
    expect(() => parsePythonJson('{"a": 1,}')).toThrow(SyntaxError);
  });
});
