/**
 * How PAC-Bench's upstream evaluators read judge replies (`evaluation/src/evaluator/*.py`), for
 * `--set judgeParse=upstream` (`--fidelity upstream`, docs/fidelity.md). Our own reading
 * (`strict`) validates a JSON object anywhere in the reply with zod and records what does not
 * parse as an `error`; upstream reads less and falls back silently.
 */

/** `--set judgeParse=…`: zod-checked replies with errors (default) or upstream's reading exactly. */
export const PAC_JUDGE_PARSES = ['strict', 'upstream'] as const;
/** One of {@link PAC_JUDGE_PARSES}. */
export type PacJudgeParse = (typeof PAC_JUDGE_PARSES)[number];

const FENCE = /```(?:json)?\s*([\s\S]*?)\s*```/;

/**
 * The JSON value upstream's `json.loads` sees, or `null` when it throws: with `fenced` (task,
 * privacy and keyword judges' `_parse_json_from_llm`) the body of the first ``` fence, else the
 * stripped reply; without (`hallucination.py`'s parser) always the stripped reply, so a fenced
 * reply does not parse. Unlike our reader, text around the JSON makes it fail.
 */
export function readUpstreamJson(text: string, { fenced }: { fenced: boolean }): unknown {
  const match = fenced ? FENCE.exec(text) : null;
  const source = match?.[1] ?? text.trim();
  try {
    return JSON.parse(source) as unknown;
  } catch {
    return null;
  }
}

/** The JSON object `value` as a record, or undefined (upstream's `.get` would fail on anything else). */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Python truthiness of a JSON value: `"false"` is true, `""`, `0`, `[]`, `{}` and `null` are false. */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** Python's `str()` of a JSON scalar (`True`, `None`, `1500`); other values as JSON text. */
export function pyStr(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}
