const THINK_BLOCK = /<think>[\s\S]*?<\/think>/gi;
const OPEN_TAG = /<think>/i;
const CLOSE_TAG = /<\/think>/i;

/**
 * Removes reasoning a model wrote inline, so it never reaches a partner (pacbench.md §4, §10
 * `privacy-cot`). Closed `<think>…</think>` blocks are dropped wherever they are; a `</think>`
 * with no opening tag (chat templates that open the block in the prompt) drops everything
 * before it; an opening `<think>` that is never closed drops everything after it. The result is
 * trimmed, so a reply that was only reasoning becomes the empty string.
 */
export function stripThinking(text: string): string {
  let visible = text.replace(THINK_BLOCK, '');
  const close = CLOSE_TAG.exec(visible);
  if (close !== null) visible = visible.slice(close.index + close[0].length);
  const open = OPEN_TAG.exec(visible);
  if (open !== null) visible = visible.slice(0, open.index);
  return visible.trim();
}
