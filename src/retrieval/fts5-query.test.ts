import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ENGLISH_STOP_WORDS, toFts5MatchQuery } from './fts5-query.js';

/** A seeded xorshift generator, so the fuzz inputs are the same on every run. */
function randomStrings({ seed, count }: { seed: number; count: number }): string[] {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const alphabet = [...'"\'()*^:-+{}[],.;\\/ \t\nNEARORANDNOTabcxyz019éü\u0301\u200b😀ß漢'];
  return Array.from({ length: count }, () =>
    Array.from({ length: Math.floor(next() * 24) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''),
  );
}

describe('toFts5MatchQuery', () => {
  it('quotes each distinct word and joins them with OR', () => {
    expect(toFts5MatchQuery('Dentist appointment, dentist! Tuesday?')).toBe('"dentist" OR "appointment" OR "tuesday"');
  });

  it('drops stop words unless nothing else is left', () => {
    expect(toFts5MatchQuery('what is the diagnosis')).toBe('"diagnosis"');
    expect(toFts5MatchQuery('what is the')).toBe('"what" OR "is" OR "the"');
    expect(toFts5MatchQuery('what is the diagnosis', { stopWords: false })).toBe(
      '"what" OR "is" OR "the" OR "diagnosis"',
    );
    expect(ENGLISH_STOP_WORDS.has('the')).toBe(true);
  });

  it('turns FTS5 syntax into plain words and returns null when no word is left', () => {
    expect(toFts5MatchQuery('text: NEAR(a b) AND "x" OR y* ^z -w')).toBe(
      '"text" OR "near" OR "b" OR "x" OR "y" OR "z" OR "w"',
    );
    expect(toFts5MatchQuery('')).toBeNull();
    expect(toFts5MatchQuery(' "*" () ^ : -- ')).toBeNull();
  });

  it('keeps at most maxTerms words, in order of appearance', () => {
    expect(toFts5MatchQuery('one two three four', { maxTerms: 2 })).toBe('"one" OR "two"');
    expect(() => toFts5MatchQuery('x', { maxTerms: 0 })).toThrow(RangeError);
  });

  it('never breaks MATCH: hostile and random inputs all run against a real FTS5 table', () => {
    const database = new Database(':memory:');
    database.exec(
      `create virtual table t using fts5(text, tokenize = 'porter unicode61 remove_diacritics 2');
       insert into t (text) values ('near the café'), ('and or not'), ('ü 漢字 x');`,
    );
    const search = database.prepare('select rowid from t where t match ? order by rank');
    const hostile = [
      '"',
      '""',
      "'); drop table t; --",
      'AND',
      'OR OR OR',
      'NOT x',
      'NEAR(',
      'text:near',
      '{text}: x',
      '*',
      'x*',
      '^x',
      '(((',
      '\\',
      '\u0301',
      'e\u0301',
      '\u200b',
      '😀',
      'a'.repeat(5000),
    ];
    let runs = 0;
    for (const text of [...hostile, ...randomStrings({ seed: 7, count: 2000 })]) {
      const match = toFts5MatchQuery(text);
      if (match === null) continue;
      expect(() => search.all(match), `input ${JSON.stringify(text)}`).not.toThrow();
      runs++;
    }
    expect(runs).toBeGreaterThan(1000);
    expect(search.all(toFts5MatchQuery('NEAR cafe')!)).toEqual([{ rowid: 1 }]);
    expect(search.all(toFts5MatchQuery('AND')!)).toEqual([{ rowid: 2 }]);
    database.close();
  });
});
