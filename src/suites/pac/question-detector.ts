const FENCED_BLOCK = /(^|\n)[ \t]*(```|~~~)[^\n]*\n[\s\S]*?(\n[ \t]*\2[^\n]*(?=\n|$)|$)/g;
/** A `?` that ends a sentence: followed by the end, white space, or closing quotes/brackets/emphasis. */
const SENTENCE_QUESTION = /\?+["'’”)\]*_]*(?=\s|$)/;

/**
 * The deterministic question detector of the question-rate analysis (pacbench.md §9): true when
 * the message has a sentence ending in `?` outside fenced code blocks (an unclosed fence runs to
 * the end). A `?` inside a word or URL (`/search?q=1`) does not count.
 */
export function containsQuestion(text: string): boolean {
  return SENTENCE_QUESTION.test(text.replace(FENCED_BLOCK, '$1'));
}
