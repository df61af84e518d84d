/**
 * JSON for a `<script type="application/json">` block: `<`, `>` and `&` become `\u003c`, `\u003e`
 * and `\u0026` (so `</script>` or `<!--` in model output cannot end the block), and U+2028/U+2029
 * are escaped too. `JSON.parse` of the block's text gives back the value unchanged.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
