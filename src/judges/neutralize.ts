import { LINE_BREAK, matchAnswerMarker } from './answer-marker.js';

/**
 * Line markers neutralised by default: the answer markers our answer-line judges key on, and
 * chat role labels an injected text could use to impersonate the prompt's own structure.
 */
export const DEFAULT_NEUTRALIZED_MARKERS: readonly string[] = Object.freeze([
  'Answer:',
  'Final answer:',
  'Verdict:',
  'Label:',
  'Score:',
  'Rating:',
  'System:',
  'User:',
  'Assistant:',
]);

/** Prefix put in front of a defused line, so it reads as quoted text rather than structure. */
export const NEUTRALIZED_LINE_PREFIX = '› ';

/** The `[` of a Llama-2 / Mistral template marker such as `[INST]` or `[/INST]`. */
const CONTROL_BRACKET = /\[(?=\/?(?:INST|SYS|SYSTEM_PROMPT|TOOL_CALLS|AVAILABLE_TOOLS|TOOL_RESULTS)\])/gi;

const CODE_FENCE_LINE = /^ {0,3}(?:`{3,}|~{3,})/;
const LINE_BREAKS = new RegExp(LINE_BREAK.source, 'g');

/**
 * Makes untrusted text (an agent's reply, a tool result, a user message) safe to place inside a
 * judge prompt, so it cannot close our fences, add placeholders, or forge an answer line. It
 * keeps the text readable: every change is a visible lookalike, never an invisible character,
 * and never a deletion. Exactly these rewrites, in this order:
 *
 * 1. Line breaks: `\r\n`, lone `\r`, `\v`, `\f`, U+0085, U+2028 and U+2029 become `\n`, so the
 *    rules below see the same line starts a reader would.
 * 2. Angle fences: runs of three or more `<` or `>` become the same number of `‹` / `›`
 *    (our `<<<…>>>` fences).
 * 3. Tags: a `<` that begins a tag-like sequence (directly followed by a letter, `/`, `!` or `?`,
 *    or by blanks and `/`) becomes `‹`, so `</response>` reads `‹/response>` and closes nothing.
 *    A lone `<` as in `a < b` is kept.
 * 3b. Chat-template control tokens: `<|` and `|>` (ChatML `<|im_start|>`, `<|im_end|>`,
 *    `<|endoftext|>`, Llama-3 `<|eot_id|>`, `<|start_header_id|>`, Phi and DeepSeek tokens) become
 *    `‹|` and `|›`, and the `[` of Llama-2 / Mistral markers (`[INST]`, `[/INST]`, `[SYSTEM_PROMPT]`,
 *    `[TOOL_CALLS]`, `[AVAILABLE_TOOLS]`, `[TOOL_RESULTS]`) becomes `［`; tag-shaped tokens (`<s>`,
 *    `</s>`, Gemma's `<start_of_turn>`/`<end_of_turn>`, `<<SYS>>`) are already defused by rule 3.
 *    A judge served with a raw template then cannot read them as turn boundaries.
 * 4. Placeholders: in any run of two or more `{` (or `}`), a space is put between the braces,
 *    so `{{slot}}` reads `{ {slot} }` and can never be substituted.
 * 5. Lines: a line that starts a Markdown code fence (three or more backticks or tildes), or
 *    that `matchAnswerMarker` would read as starting with one of `DEFAULT_NEUTRALIZED_MARKERS`
 *    or `extraMarkers` (case-insensitive, after Markdown decoration such as `### ` or `**`),
 *    gets `NEUTRALIZED_LINE_PREFIX` (`› `) in front, so `Answer: Yes` in the judged text
 *    reads `› Answer: Yes` and is no longer an answer line for the parser.
 *
 * The function is idempotent for a given marker set: no rewrite produces input for another,
 * and a prefixed line no longer starts with a marker.
 */
export function neutralize(text: string, options: { extraMarkers?: readonly string[] } = {}): string {
  const markers = [...DEFAULT_NEUTRALIZED_MARKERS, ...(options.extraMarkers ?? [])];
  const fenced = text
    .replace(LINE_BREAKS, '\n')
    .replace(/<{3,}/g, (run) => '‹'.repeat(run.length))
    .replace(/>{3,}/g, (run) => '›'.repeat(run.length))
    .replace(/<(?=[A-Za-z/!?]|\s*\/)/g, '‹')
    .replace(/<\|/g, '‹|')
    .replace(/\|>/g, '|›')
    .replace(CONTROL_BRACKET, '［')
    .replace(/\{(?=\{)/g, '{ ')
    .replace(/\}(?=\})/g, '} ');
  return fenced
    .split('\n')
    .map((line) => (isStructuralLine({ line, markers }) ? `${NEUTRALIZED_LINE_PREFIX}${line}` : line))
    .join('\n');
}

function isStructuralLine({ line, markers }: { line: string; markers: readonly string[] }): boolean {
  if (CODE_FENCE_LINE.test(line)) return true;
  return markers.some((marker) => matchAnswerMarker({ line, marker }) !== null);
}
