import { closingBraceIndex } from '../../prompts/index.js';

/**
 * How the agent's text is trimmed before judging (`--set postprocess=…`, privacylens-confaide.md §A4):
 * - `privacylens`: upstream's rule; strip a leading Llama-3 assistant header, cut at `Observation:`,
 *   cut at `Final Answer:`, then cut right after the FIRST `}` (which breaks nested JSON, as upstream does);
 * - `balanced-json`: the same, but cut after the brace that closes the first JSON object;
 * - `none`: keep the text as it is (PrivAct stores role-chain outputs raw).
 */
export const POSTPROCESS_MODES = ['privacylens', 'none', 'balanced-json'] as const;
/** One of {@link POSTPROCESS_MODES}. */
export type PostprocessMode = (typeof POSTPROCESS_MODES)[number];

/**
 * How a leading Llama-3 assistant header is stripped (`--set llamaHeader=…`) in the cutting modes:
 * - `confidant` (default): the header (with or without its special tokens) is removed, nothing else;
 * - `upstream`: upstream's `post_process` exactly: only the literal
 *   `<|start_header_id|>assistant<|end_header_id|>` prefix, then the text is cut at `<|eot_id|>`;
 *   without one, Python's `s[:s.find('<|eot_id|>')]` is `s[:-1]` and drops the last character.
 */
export const LLAMA_HEADER_RULES = ['confidant', 'upstream'] as const;
/** One of {@link LLAMA_HEADER_RULES}. */
export type LlamaHeaderRule = (typeof LLAMA_HEADER_RULES)[number];

const UPSTREAM_HEADER = '<|start_header_id|>assistant<|end_header_id|>';
const EOT = '<|eot_id|>';

function stripHeader(text: string, rule: LlamaHeaderRule): string {
  if (rule === 'confidant') return text.replace(LLAMA3_HEADER, '');
  const reply = text.trim();
  if (!reply.startsWith(UPSTREAM_HEADER)) return reply;
  const body = reply.slice(UPSTREAM_HEADER.length).trim();
  const end = body.indexOf(EOT);
  return body.slice(0, end === -1 ? -1 : end);
}

/** Whether the first `Action:` names the case's final action (`missing` is upstream's null: no tool name after `Action:`). */
export type ActionValidity = 'valid' | 'mismatch' | 'missing';

const ACTION_MARKER = 'Action:';
const ACTION_NAME = /Action:\s*([A-Za-z0-9_]+)/;
const LLAMA3_HEADER = /^\s*(?:<\|start_header_id\|>\s*assistant\s*<\|end_header_id\|>|assistant[ \t]*(?:\r?\n|$))/;

function cutAt(text: string, marker: string): string {
  const index = text.indexOf(marker);
  return index === -1 ? text : text.slice(0, index);
}

/** Index just past the `}` that closes the first JSON object (string-aware), or -1 if it never closes. */
function endOfFirstObject(text: string): number {
  const inputAt = text.indexOf('Action Input:');
  const start = text.indexOf('{', inputAt === -1 ? 0 : inputAt);
  if (start === -1) return -1;
  const end = closingBraceIndex({ text, start });
  return end === -1 ? -1 : end + 1;
}

/**
 * Applies a post-processing mode to the agent's raw text; the two cutting modes trim the result.
 * `balanced-json`
 * looks for the first `{` after `Action Input:` (or anywhere when there is none) and keeps the text
 * whole when that object never closes; `privacylens` keeps it whole when there is no `}`.
 */
export function postprocessAction({
  text,
  mode,
  llamaHeader = 'confidant',
}: {
  text: string;
  mode: PostprocessMode;
  llamaHeader?: LlamaHeaderRule;
}): string {
  if (mode === 'none') return text;
  let cut = cutAt(cutAt(stripHeader(text, llamaHeader), 'Observation:'), 'Final Answer:');
  if (mode === 'privacylens') {
    const brace = cut.indexOf('}');
    if (brace !== -1) cut = cut.slice(0, brace + 1);
  } else {
    const end = endOfFirstObject(cut);
    if (end !== -1) cut = cut.slice(0, end);
  }
  return cut.trim();
}

/** The text after the FIRST `Action:`, trimmed (tool name, `Action Input:` and JSON), or null without one. */
export function extractAction(text: string): string | null {
  const index = text.indexOf(ACTION_MARKER);
  return index === -1 ? null : text.slice(index + ACTION_MARKER.length).trim();
}

/**
 * Reads the first `Action:\s*([A-Za-z0-9_]+)` match: `valid` when it is the case's final action,
 * `mismatch` for another name, `missing` when there is none. A `<RESULT>…</RESULT>` wrapper makes
 * no difference, since the markers are found wherever they are.
 */
export function actionValidity({ text, finalAction }: { text: string; finalAction: string }): {
  validity: ActionValidity;
  actionName: string | null;
} {
  const match = ACTION_NAME.exec(text);
  const actionName = match?.[1] ?? null;
  if (actionName === null) return { validity: 'missing', actionName };
  return { validity: actionName === finalAction ? 'valid' : 'mismatch', actionName };
}

/** What the judges and metrics read from one agent answer. */
export type ParsedAction = {
  /** The post-processed text. */
  processed: string;
  /** The text after the first `Action:` in `processed`, or null when it has none (no judge call). */
  action: string | null;
  /** The first tool name after `Action:`, or null. */
  actionName: string | null;
  validity: ActionValidity;
};

/** Post-processes the raw answer, then extracts the action and checks it against the final action. */
export function parseAction({
  raw,
  mode,
  llamaHeader,
  finalAction,
}: {
  raw: string;
  mode: PostprocessMode;
  llamaHeader?: LlamaHeaderRule;
  finalAction: string;
}): ParsedAction {
  const processed = postprocessAction({ text: raw, mode, ...(llamaHeader === undefined ? {} : { llamaHeader }) });
  return { processed, action: extractAction(processed), ...actionValidity({ text: processed, finalAction }) };
}
