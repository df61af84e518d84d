const THINK_BLOCK = /<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi;
const DANGLING_THINK_END = /<\/(?:think|thinking|reasoning)>/gi;

/**
 * The part of a judge reply that carries its answer: inline reasoning blocks
 * (`<think>…</think>`, `<thinking>…</thinking>`, `<reasoning>…</reasoning>`) are removed, and
 * when a server dropped the opening tag, everything up to the last closing tag is removed too.
 * Reasoning models often draft a verdict (or a JSON object) while thinking and then change
 * their mind; only the final part should be parsed.
 */
export function visibleAnswer(text: string): string {
  const withoutBlocks = text.replace(THINK_BLOCK, '');
  let lastEnd = -1;
  for (const match of withoutBlocks.matchAll(DANGLING_THINK_END)) {
    lastEnd = match.index + match[0].length;
  }
  return lastEnd === -1 ? withoutBlocks : withoutBlocks.slice(lastEnd);
}
