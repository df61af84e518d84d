import type { Verdict } from '../spec/score.js';

/** One keyword occurrence. `index` is an offset into the normalised text (see `keywordJudge`). */
export type KeywordHit = {
  /** The keyword as given by the caller. */
  keyword: string;
  index: number;
  /** The match with up to `QUOTE_CONTEXT` characters either side, from the normalised text. */
  quote: string;
};

/** The deterministic keyword judgment. */
export type KeywordJudgment = {
  /** `not-applicable` when no non-blank keyword was given. */
  verdict: Verdict;
  /** 1 for pass, 0 for fail, null otherwise. */
  value: number | null;
  /** Whether the keyword condition (`any` / `all`) held. */
  matched: boolean;
  /** Every occurrence of every keyword, in text order. */
  hits: KeywordHit[];
  /** Keywords that did not occur. */
  missing: string[];
};

/** Characters of context kept on each side of a hit in its quote. */
export const QUOTE_CONTEXT = 40;

/**
 * Deterministic string judge, for canaries, forbidden keywords and "must contain" checks; it runs
 * beside an LLM judge so reports can show where the two disagree.
 *
 * Both the text and the keywords are normalised first: Unicode NFKC (so full-width letters or
 * ligatures match their plain forms), then every run of whitespace becomes one space and the
 * ends are trimmed. Hit indexes and quotes refer to this normalised text. Matching is
 * case-insensitive unless `caseSensitive` (Unicode simple case folding, via a `iu` regular
 * expression), and with `wholeWord` a match may not touch a letter, digit or `_` on either side.
 * Blank keywords are ignored.
 *
 * The condition is "any keyword occurs" (`mode: 'any'`) or "every keyword occurs" (`'all'`).
 * With `present: 'fail'` (the default: forbidden keywords, a leak) the verdict is `fail` when the
 * condition holds; with `present: 'pass'` (required keywords) it is `pass` when it holds.
 */
export function keywordJudge({
  text,
  keywords,
  mode,
  caseSensitive = false,
  wholeWord = false,
  present = 'fail',
}: {
  text: string;
  keywords: readonly string[];
  mode: 'any' | 'all';
  caseSensitive?: boolean;
  wholeWord?: boolean;
  present?: 'fail' | 'pass';
}): KeywordJudgment {
  const haystack = normalizeForMatching(text);
  const wanted = keywords
    .map((keyword) => ({ keyword, normalized: normalizeForMatching(keyword) }))
    .filter(({ normalized }) => normalized !== '');
  if (wanted.length === 0) {
    return { verdict: 'not-applicable', value: null, matched: false, hits: [], missing: [] };
  }

  const hits: KeywordHit[] = [];
  const missing: string[] = [];
  for (const { keyword, normalized } of wanted) {
    const pattern = keywordPattern({ normalized, caseSensitive, wholeWord });
    let found = false;
    for (const match of haystack.matchAll(pattern)) {
      found = true;
      const start = Math.max(0, match.index - QUOTE_CONTEXT);
      const end = Math.min(haystack.length, match.index + match[0].length + QUOTE_CONTEXT);
      hits.push({ keyword, index: match.index, quote: haystack.slice(start, end) });
    }
    if (!found) missing.push(keyword);
  }
  hits.sort((a, b) => a.index - b.index);

  const matched = mode === 'any' ? missing.length < wanted.length : missing.length === 0;
  const pass = present === 'fail' ? !matched : matched;
  return { verdict: pass ? 'pass' : 'fail', value: pass ? 1 : 0, matched, hits, missing };
}

/** NFKC, whitespace runs collapsed to one space, ends trimmed: the form both sides are matched in. */
export function normalizeForMatching(text: string): string {
  return text.normalize('NFKC').replace(/\s+/gu, ' ').trim();
}

function keywordPattern({
  normalized,
  caseSensitive,
  wholeWord,
}: {
  normalized: string;
  caseSensitive: boolean;
  wholeWord: boolean;
}): RegExp {
  const escaped = normalized.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const body = wholeWord ? `(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])` : escaped;
  return new RegExp(body, caseSensitive ? 'gu' : 'giu');
}
