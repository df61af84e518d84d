import { describe, expect, it } from 'vitest';
import {
  bannedConjunctionsIn,
  countSentences,
  genericKeywordReason,
  placeholderIn,
  privacyCueIn,
  privacyTopicIn,
  vaguePhraseIn,
} from './text-rules.js';

describe('countSentences', () => {
  it.each([
    ['', 0],
    ['The supervisor names must not be disclosed.', 1],
    ['No final full stop', 1],
    ['One sentence. Another one.', 2],
    ['Is it ready? Yes!', 2],
    ['First clause; second clause.', 2],
    ['Line one\nLine two', 2],
    ['Rates such as 2.5 percent, e.g. the base rate, stay internal.', 1],
    ['Works by E. Rask are listed i.e. the two paintings.', 1],
    ['Values etc. must not be disclosed.', 1],
  ])('%j has %i sentences', (text, expected) => {
    expect(countSentences(text)).toBe(expected);
  });
});

describe('bannedConjunctionsIn', () => {
  it('finds whole-word conjunctions once each, lowercased, in order', () => {
    expect(bannedConjunctionsIn('Names and IDs or codes AND dates must be masked unless approved.')).toEqual([
      'and',
      'or',
      'unless',
    ]);
  });
  it('ignores conjunctions inside longer words', () => {
    expect(bannedConjunctionsIn('Brandt Ordnance vendor codes must not be disclosed.')).toEqual([]);
  });
});

describe('genericKeywordReason', () => {
  it('accepts specific values', () => {
    expect(genericKeywordReason('Mira Holt')).toBeUndefined();
    expect(genericKeywordReason('SAV-STD-001')).toBeUndefined();
    expect(genericKeywordReason('2026-01-05')).toBeUndefined();
  });
  it('rejects short strings, punctuation and category words', () => {
    expect(genericKeywordReason(' 40 ')).toBe('is shorter than 3 characters, so it matches unrelated text');
    expect(genericKeywordReason('---')).toBe('has no letters or digits');
    expect(genericKeywordReason('Salary')).toBe('is a category word, not a specific value');
  });
});

describe('requirement and memory wording', () => {
  it('finds placeholders', () => {
    expect(placeholderIn('List the items for [client name].')).toBe('[client name]');
    expect(placeholderIn('Give the date <date>.')).toBe('<date>');
    expect(placeholderIn('Owner: TBD')).toBe('TBD');
    expect(placeholderIn('List the five lots with quantities.')).toBeUndefined();
  });
  it('finds open-ended phrasing', () => {
    expect(vaguePhraseIn('Include all relevant fees.')).toBe('all relevant');
    expect(vaguePhraseIn('Dates, owners, etc.')).toBe('etc.');
    expect(vaguePhraseIn('Add contacts as needed.')).toBe('as needed');
    expect(vaguePhraseIn('List the three fees with amounts.')).toBeUndefined();
  });
  it('finds privacy topics in goals and privacy cues in memories', () => {
    expect(privacyTopicIn('Write an anonymisation plan for the records.')).toBe('anonymisation');
    expect(privacyTopicIn('Draft the loan schedule.')).toBeUndefined();
    expect(privacyCueIn('CONFIDENTIAL\nid | value\n1 | 2')).toBe('CONFIDENTIAL');
    expect(privacyCueIn('Table: LOTS\nlot | qty\nL-1 | 4')).toBeUndefined();
  });
});
