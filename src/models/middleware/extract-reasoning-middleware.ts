import type { GenerateResult, ModelMiddleware } from '../../spec/chat-model.js';

/** The tags of inline reasoning: `<think>`, `<thinking>` and `<reasoning>`, any case. */
const CLOSED_BLOCK = /<(think|thinking|reasoning)>([\s\S]*?)<\/\1>/gi;
const CLOSE_TAG = /<\/(?:think|thinking|reasoning)>/gi;
const OPEN_TAG = /<(?:think|thinking|reasoning)>/i;
/** Any tag of the three, opening or closing: without one there is nothing to split (one scan, not three). */
const ANY_TAG = /<\/?(?:think|thinking|reasoning)>/i;

/** A reply split into what it says and the reasoning it wrote inline. */
export type ExtractedReasoning = { text: string; reasoning: string | undefined };

/**
 * Splits inline reasoning from a reply, the one rule for every caller:
 * 1. closed blocks (`<think>…</think>`, `<thinking>…</thinking>`, `<reasoning>…</reasoning>`,
 *    case-insensitive) are reasoning, wherever they are;
 * 2. then, a closing tag with no opening one (chat templates that open the block in the prompt)
 *    makes everything up to the last such tag reasoning;
 * 3. then, an opening tag that is never closed (a reply cut off mid-thought) makes everything
 *    after it reasoning.
 * When any reasoning was found, the remaining text is trimmed and the reasoning parts are joined
 * by blank lines; otherwise the text is returned unchanged and `reasoning` is undefined.
 * Reasoning models often draft an answer (a verdict, a JSON object, a message) while thinking
 * and then change their mind: only the text outside is the answer.
 */
export function extractReasoning(text: string): ExtractedReasoning {
  if (!ANY_TAG.test(text)) return { text, reasoning: undefined };
  const parts: string[] = [];
  let found = false;
  let visible = text.replace(CLOSED_BLOCK, (_whole, _tag: string, inner: string) => {
    found = true;
    parts.push(inner);
    return '';
  });
  let lastEnd = -1;
  let lastStart = -1;
  for (const match of visible.matchAll(CLOSE_TAG)) {
    lastStart = match.index;
    lastEnd = match.index + match[0].length;
  }
  if (lastEnd !== -1) {
    found = true;
    parts.unshift(visible.slice(0, lastStart));
    visible = visible.slice(lastEnd);
  }
  const open = OPEN_TAG.exec(visible);
  if (open !== null) {
    found = true;
    parts.push(visible.slice(open.index + open[0].length));
    visible = visible.slice(0, open.index);
  }
  if (!found) return { text, reasoning: undefined };
  const reasoning = parts
    .map((part) => part.replace(CLOSE_TAG, '').trim())
    .filter((part) => part !== '')
    .join('\n\n');
  return { text: visible.trim(), reasoning };
}

/**
 * Fills `GenerateResult.reasoning` from the reasoning a model wrote inline (see
 * {@link extractReasoning}) and leaves only the answer in `text`, so that no caller strips
 * reasoning itself and every caller strips it the same way. Reasoning the provider already
 * returned separately comes first. A request with `inlineReasoning: 'keep'` gets the text as
 * the model wrote it (reasoning still filled), for parsers that must read it (PrivacyLens'
 * upstream judge parse). It is the outermost layer, so the `model-call` event and the response
 * cache keep the reply exactly as the provider returned it.
 */
export function extractReasoningMiddleware(): ModelMiddleware {
  return {
    id: 'extract-reasoning',
    async wrapGenerate({ request, next }) {
      const result = await next(request);
      return withReasoningExtracted(result, request.inlineReasoning === 'keep');
    },
  };
}

function withReasoningExtracted(result: GenerateResult, keepText: boolean): GenerateResult {
  // Most replies have no tag at all: no split, no allocation.
  if (!ANY_TAG.test(result.text)) return result;
  const { text, reasoning } = extractReasoning(result.text);
  if (reasoning === undefined) return result;
  const joined = [result.reasoning, reasoning].filter((part) => part !== undefined && part !== '').join('\n\n');
  return { ...result, text: keepText ? result.text : text, reasoning: joined };
}
