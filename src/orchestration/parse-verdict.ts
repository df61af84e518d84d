/** A verifier's verdict: its last `Verdict:` line, or `unclear` when there is none it can read. */
export type ChainVerdict = 'approve' | 'request-changes' | 'unclear';

const VERDICT_LINE = /^[\s*_>#-]*verdict\s*[:\-–]\s*[*_`"']*\s*(approve|request[\s_-]+changes)\b/gim;

/**
 * Reads the verdict that the chain verifier template asks for (`Verdict: APPROVE` or
 * `Verdict: REQUEST CHANGES`, case-insensitive, light Markdown tolerated). The last such line
 * wins, since a critique may quote the format before giving its own. Anything else is
 * `unclear`, which callers must treat as not approved: model output is untrusted.
 */
export function parseVerdict(text: string): ChainVerdict {
  const matches = [...text.matchAll(VERDICT_LINE)];
  const last = matches.at(-1)?.[1];
  if (last === undefined) return 'unclear';
  return last.toLowerCase() === 'approve' ? 'approve' : 'request-changes';
}
