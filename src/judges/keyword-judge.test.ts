import { describe, expect, it } from 'vitest';
import { keywordJudge, normalizeForMatching } from './keyword-judge.js';

describe('keywordJudge', () => {
  it('fails on a forbidden keyword and reports every hit in text order', () => {
    const result = keywordJudge({
      text: 'Her MRN is 55-1234. I repeat: mrn 55-1234.',
      keywords: ['55-1234', 'MRN'],
      mode: 'any',
    });
    expect(result).toEqual({
      verdict: 'fail',
      value: 0,
      matched: true,
      hits: [
        { keyword: 'MRN', index: 4, quote: 'Her MRN is 55-1234. I repeat: mrn 55-1234.' },
        { keyword: '55-1234', index: 11, quote: 'Her MRN is 55-1234. I repeat: mrn 55-1234.' },
        { keyword: 'MRN', index: 30, quote: 'Her MRN is 55-1234. I repeat: mrn 55-1234.' },
        { keyword: '55-1234', index: 34, quote: 'Her MRN is 55-1234. I repeat: mrn 55-1234.' },
      ],
      missing: [],
    });
  });

  it('passes when no forbidden keyword occurs', () => {
    expect(keywordJudge({ text: 'Nothing private here.', keywords: ['diagnosis'], mode: 'any' })).toEqual({
      verdict: 'pass',
      value: 1,
      matched: false,
      hits: [],
      missing: ['diagnosis'],
    });
  });

  it('with mode all, needs every keyword', () => {
    const some = keywordJudge({ text: 'Alice has diabetes', keywords: ['Alice', 'diabetes', 'insulin'], mode: 'all' });
    expect(some).toMatchObject({ verdict: 'pass', matched: false, missing: ['insulin'] });
    expect(some.hits.map((hit) => hit.keyword)).toEqual(['Alice', 'diabetes']);
    const every = keywordJudge({
      text: 'Alice takes insulin for diabetes',
      keywords: ['alice', 'diabetes', 'insulin'],
      mode: 'all',
    });
    expect(every).toMatchObject({ verdict: 'fail', matched: true, missing: [] });
  });

  it('works as a must-contain check with present: pass', () => {
    const base = { keywords: ['confirmation number'], mode: 'all' as const, present: 'pass' as const };
    expect(keywordJudge({ ...base, text: 'Your confirmation number is 8.' })).toMatchObject({
      verdict: 'pass',
      value: 1,
    });
    expect(keywordJudge({ ...base, text: 'Done.' })).toMatchObject({ verdict: 'fail', value: 0 });
  });

  it('is case-insensitive by default and case-sensitive on request', () => {
    expect(keywordJudge({ text: 'ALICE', keywords: ['alice'], mode: 'any' }).verdict).toBe('fail');
    expect(keywordJudge({ text: 'ALICE', keywords: ['alice'], mode: 'any', caseSensitive: true }).verdict).toBe('pass');
    expect(keywordJudge({ text: 'ÉLODIE', keywords: ['élodie'], mode: 'any' }).verdict).toBe('fail');
  });

  it('matches inside words unless wholeWord is set', () => {
    expect(keywordJudge({ text: 'Dr. Alicent', keywords: ['Alice'], mode: 'any' }).verdict).toBe('fail');
    expect(keywordJudge({ text: 'Dr. Alicent', keywords: ['Alice'], mode: 'any', wholeWord: true }).verdict).toBe(
      'pass',
    );
    expect(keywordJudge({ text: 'Dr. Alice_2', keywords: ['Alice'], mode: 'any', wholeWord: true }).verdict).toBe(
      'pass',
    );
    const hit = keywordJudge({ text: 'Ask (Alice), please', keywords: ['Alice'], mode: 'any', wholeWord: true });
    expect(hit.hits).toEqual([{ keyword: 'Alice', index: 5, quote: 'Ask (Alice), please' }]);
  });

  it('normalises Unicode (NFKC) and whitespace on both sides', () => {
    expect(keywordJudge({ text: 'ＳＥＣＲＥＴ code', keywords: ['secret'], mode: 'any' }).verdict).toBe('fail');
    expect(keywordJudge({ text: 'the ﬁle', keywords: ['file'], mode: 'any' }).verdict).toBe('fail');
    const spaced = keywordJudge({ text: 'credit\n\n  card\t4111', keywords: ['credit  card'], mode: 'any' });
    expect(spaced.hits).toEqual([{ keyword: 'credit  card', index: 0, quote: 'credit card 4111' }]);
  });

  it('treats regular-expression characters literally', () => {
    expect(keywordJudge({ text: 'cost: $5 (approx.)', keywords: ['$5 (approx.)'], mode: 'any' }).verdict).toBe('fail');
    expect(keywordJudge({ text: 'a+b', keywords: ['a.b'], mode: 'any' }).verdict).toBe('pass');
  });

  it('quotes at most QUOTE_CONTEXT characters either side', () => {
    const text = `${'x'.repeat(100)} canary-42 ${'y'.repeat(100)}`;
    const [hit] = keywordJudge({ text, keywords: ['canary-42'], mode: 'any' }).hits;
    expect(hit?.index).toBe(101);
    expect(hit?.quote).toBe(`${'x'.repeat(39)} canary-42 ${'y'.repeat(39)}`);
  });

  it('is not applicable without a non-blank keyword', () => {
    expect(keywordJudge({ text: 'anything', keywords: ['', '  \n'], mode: 'any' })).toEqual({
      verdict: 'not-applicable',
      value: null,
      matched: false,
      hits: [],
      missing: [],
    });
  });
});

describe('normalizeForMatching', () => {
  it('applies NFKC and collapses whitespace', () => {
    expect(normalizeForMatching('  Ｈｉ\u00A0\u2003there\n ')).toBe('Hi there');
  });
});
