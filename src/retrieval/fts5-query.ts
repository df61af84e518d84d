/**
 * Common English function words. They match nearly every chunk, so leaving them in an OR query
 * only makes FTS5 score most of the index; BM25 would give them almost no weight anyway.
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her him his how i if in ' +
    'into is it its just me my no not of on or our she so than that the their them then there they this to ' +
    'too us was we were what when where which who why will with would you your'
  ).split(' '),
);

/** Options of `toFts5MatchQuery`. */
export type Fts5QueryOptions = {
  /** Words dropped from the query unless nothing else is left; `false` keeps every word. */
  stopWords?: ReadonlySet<string> | false;
  /** At most this many distinct words are kept, in order of first appearance (default 64). */
  maxTerms?: number;
};

/**
 * Turns arbitrary user text into an FTS5 MATCH expression that can never be a syntax error:
 * the text is split into words (runs of letters, digits and combining marks, lower-cased after
 * NFKC), each word becomes a double-quoted FTS5 string, and the strings are joined with OR, so
 * a chunk matches when it shares any word and BM25 ranks chunks sharing more, rarer words first.
 * Operators, quotes, parentheses, column filters, `*`, `^` and `NEAR` in the input are plain
 * text this way. Returns `null` when the text has no word, meaning "matches nothing".
 */
export function toFts5MatchQuery(text: string, options: Fts5QueryOptions = {}): string | null {
  const maxTerms = options.maxTerms ?? 64;
  if (!Number.isInteger(maxTerms) || maxTerms < 1) {
    throw new RangeError(`maxTerms must be a positive integer, got ${maxTerms}`);
  }
  const stopWords = options.stopWords === false ? undefined : (options.stopWords ?? ENGLISH_STOP_WORDS);
  const words = [
    ...new Set(
      text
        .normalize('NFKC')
        .toLowerCase()
        .match(/[\p{L}\p{N}\p{M}]+/gu) ?? [],
    ),
  ];
  const content = stopWords ? words.filter((word) => !stopWords.has(word)) : words;
  const kept = (content.length > 0 ? content : words).slice(0, maxTerms);
  if (kept.length === 0) return null;
  // Words hold no '"' by construction; doubling quotes keeps the quoting correct regardless.
  return kept.map((word) => `"${word.replaceAll('"', '""')}"`).join(' OR ');
}
