import fc from 'fast-check';
import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import { expandBraces, matchesGlob } from './glob-match.js';
import { ToolError } from './tool-error.js';

// Expected values are what minimatch(path, pattern, { dot: true }) answers, which the official
// filesystem server uses for search_files and exclude patterns.
const CASES: Array<[path: string, pattern: string, expected: boolean]> = [
  ['a.txt', '*.txt', true],
  ['sub/a.txt', '*.txt', false],
  ['sub/a.txt', '**/*.txt', true],
  ['a.txt', '**/*.txt', true],
  ['a.txt', './*.txt', false],
  ['.hidden', '*', true],
  ['sub/.env', '**/.*', true],
  ['sub', '**', true],
  ['sub/x/y', '**', true],
  ['sub', 'sub/**', false],
  ['sub/deep/a.txt', 'sub/**', true],
  ['sub/x/y.md', 'sub/**/y.md', true],
  ['sub/y.md', 'sub/**/y.md', true],
  ['a.md', '*.{md,txt}', true],
  ['a.csv', '*.{md,txt}', false],
  ['a3', 'a{1..5}', true],
  ['a7', 'a{1..5}', false],
  ['data/2024/q1.csv', 'data/{2023..2025}/*', true],
  ['a.txt', 'a.TXT', false],
  ['sub/a.txt', 'sub/', false],
  ['sub', 'sub/', false],
  ['a[1].txt', 'a[1].txt', false],
  ['a1.txt', 'a[0-9].txt', true],
  ['ab.txt', 'a[!0-9]*', true],
  ['a1.txt', 'a[!0-9]*', false],
  ['bb', '[a-c]b', true],
  ['ab', 'a?', true],
  ['a/b', 'a?b', false],
  ['a.txt', '!b.txt', true],
  ['b.txt', '!b.txt', false],
  ['a.txt', '+(a|b).txt', true],
  ['ab', '@(ab|x)', true],
  ['abab.txt', '*(a|b).txt', true],
  ['.txt', '?(a).txt', true],
  ['a*', 'a\\*', true],
  ['ab', 'a\\*', false],
  ['report-final.md', '*report*', true],
  ['x', '#x', false],
  ['a[', 'a[', true],
  ['Report', '[[:upper:]]*', true],
  ['report', '[[:upper:]]*', false],
  ['a b.txt', 'a b*', true],
  ['z', '[z-a]', false],
  ['[z-a]', '[z-a]', false],
  ['a(b', 'a(b', true],
  ['*(', '*(', true],
  ['a|b', 'a|b', true],
];

describe('matchesGlob', () => {
  it.each(CASES)('%s against %s is %s', (path, pattern, expected) => {
    expect(matchesGlob(path, pattern)).toBe(expected);
  });
});

describe('expandBraces', () => {
  it('expands lists, nested lists and ranges, and keeps non-expressions literal', () => {
    expect(expandBraces('a{b,c{d,e}}f')).toEqual(['abf', 'acdf', 'acef']);
    expect(expandBraces('{01..03}')).toEqual(['01', '02', '03']);
    expect(expandBraces('{3..1}')).toEqual(['3', '2', '1']);
    expect(expandBraces('{a..c}')).toEqual(['a', 'b', 'c']);
    expect(expandBraces('x{,y}')).toEqual(['x', 'xy']);
    expect(expandBraces('{single}')).toEqual(['\\{single\\}']);
    expect(expandBraces('plain')).toEqual(['plain']);
  });

  it('refuses patterns that would expand without bound, as a model mistake', () => {
    expect(() => expandBraces('{1..99999999}')).toThrow(ToolError);
    expect(() => expandBraces('{a,b}'.repeat(20))).toThrow('Glob pattern expands to more than 10000 alternatives');
    expect(() => matchesGlob('x', '{1..99999999}')).toThrow(ToolError);
    expect(expandBraces('{a,b}'.repeat(13))).toHaveLength(8192);
  });
});

describe('matchesGlob on untrusted patterns', () => {
  it('answers a backtracking bomb (29 characters over a 40-character name) without backtracking', () => {
    const bomb = `${'*a'.repeat(14)}b`;
    expect(bomb).toHaveLength(29);
    // minimatch compiles this to a regex that runs for hours on the same input.
    expect(matchesGlob('a'.repeat(40), bomb)).toBe(false);
    expect(matchesGlob(`${'a'.repeat(40)}b`, bomb)).toBe(true);
    expect(matchesGlob('a'.repeat(200), `${'*a'.repeat(100)}*b`)).toBe(false);
    expect(matchesGlob('a'.repeat(200), `${'+(a|aa)'.repeat(50)}b`)).toBe(false);
    expect(matchesGlob(`x${'a'.repeat(60)}`, `x${'!(a)'.repeat(10)}b`)).toBe(false);
  });

  it('agrees with minimatch (dot: true), the official server matcher, on random small patterns', () => {
    const token = fc.constantFrom(
      'a',
      'b',
      '.',
      '*',
      '?',
      '[ab]',
      '[!a]',
      '{a,b}',
      '@(a|b)',
      '!(a)',
      '+(a|ab)',
      '*(b)',
      '?(a)',
      '/',
      '**/',
      'x',
    );
    const pattern = fc.array(token, { maxLength: 6 }).map((parts) => parts.join(''));
    const name = fc
      .array(fc.constantFrom('a', 'b', '.', 'x', '/'), { minLength: 1, maxLength: 6 })
      .map((parts) => parts.join(''))
      // Relative paths of a listing: no empty, `.` or `..` segments.
      .filter((path) => path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..'));
    fc.assert(
      fc.property(pattern, name, (glob, path) => {
        expect(matchesGlob(path, glob), `${path} against ${glob}`).toBe(minimatch(path, glob, { dot: true }));
      }),
      { numRuns: 3000, seed: 15 },
    );
  });
});
