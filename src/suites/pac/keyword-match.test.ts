import { describe, expect, it } from 'vitest';
import { findKeywords, type KeywordMatch, keywordRule, maskKeywords } from './keyword-match.js';

const found = (text: string, keyword: string, rule: KeywordMatch) =>
  findKeywords({ text, keywords: [{ keyword, rule }] }).matched.length > 0;
const masked = (text: string, keyword: string, rule: KeywordMatch) =>
  maskKeywords({ text, keywords: [{ keyword, rule }], mask: '[withheld]' });

describe('findKeywords: word (default), substring and upstream (docs/fidelity.md)', () => {
  it.each([
    // A short keyword inside a word: only on word boundaries does it stay out.
    ['Final schedule attached', 'NA', false, true, true],
    ['NA: the gate code', 'NA', true, true, true],
    // Full-width letters and a line break inside the value: we normalise (NFKC, whitespace), upstream matches raw text.
    ['The code is Ｖａｕｌｔ ２.', 'Vault 2', true, true, false],
    ['Jane\n  Doe signed', 'Jane Doe', true, true, false],
    // Letters are case-folded by all three; a keyword edge that is punctuation needs no boundary.
    ['paid US$5,000 in cash', '$5,000', true, true, true],
    ['vault 2 is closed', 'VAULT 2', true, true, true],
  ])('%j with %j → word %j, substring %j, upstream %j', (text, keyword, word, substring, upstream) => {
    expect(found(text, keyword, 'word')).toBe(word);
    expect(found(text, keyword, 'substring')).toBe(substring);
    expect(found(text, keyword, 'upstream')).toBe(upstream);
  });

  it('returns each matched keyword once, in keyword order, and each distinct hit as it reads', () => {
    const result = findKeywords({
      text: 'Vault 2 and vault 2; code 4471#',
      keywords: [
        { keyword: '4471#', rule: 'word' },
        { keyword: 'Vault 2', rule: 'word' },
        { keyword: '', rule: 'upstream' },
      ],
    });
    expect(result.matched).toEqual(['4471#', 'Vault 2']);
    expect(result.hits).toEqual(['4471#', 'Vault 2', 'vault 2']);
    // Normalised rules report the hit as normalised (one space, NFKC); upstream reports the raw text.
    const spaced = 'Signed: Jane\n  Doe and ＪＡＮＥ DOE';
    expect(findKeywords({ text: spaced, keywords: [{ keyword: 'Jane Doe', rule: 'word' }] }).hits).toEqual([
      'Jane Doe',
      'JANE DOE',
    ]);
    expect(findKeywords({ text: 'jane doe', keywords: [{ keyword: 'Jane Doe', rule: 'upstream' }] }).hits).toEqual([
      'jane doe',
    ]);
  });
});

describe('keywordRule', () => {
  it("lets a policy's own match win over the run's, except under upstream", () => {
    expect(keywordRule({ run: 'word' })).toBe('word');
    expect(keywordRule({ run: 'word', policy: 'substring' })).toBe('substring');
    expect(keywordRule({ run: 'substring', policy: 'word' })).toBe('word');
    expect(keywordRule({ run: 'upstream', policy: 'word' })).toBe('upstream');
  });
});

describe('maskKeywords: the oracle masks by the same rule', () => {
  it('keeps "donation" whole for the keyword NA on word boundaries, and masks inside it as a substring', () => {
    expect(masked('A donation from NA', 'NA', 'word')).toBe('A donation from [withheld]');
    expect(masked('A donation from NA', 'NA', 'substring')).toBe('A do[withheld]tion from [withheld]');
    expect(masked('A donation from NA', 'NA', 'upstream')).toBe('A do[withheld]tion from [withheld]');
  });

  it('masks a value whose spaces the text writes differently, so the judge cannot find it afterwards', () => {
    const text = masked('Signed: Jane\n Doe.', 'Jane Doe', 'word');
    expect(text).toBe('Signed: [withheld].');
    expect(found(text, 'Jane Doe', 'word')).toBe(false);
  });
});
