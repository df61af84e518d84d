import { createTwoFilesPatch } from 'diff';

/**
 * Git-style unified diffs for `edit_file`, exactly as the official filesystem server prints them:
 * the same call into the `diff` library the server makes (`createTwoFilesPatch` with headers
 * tagged `original`/`modified`, after CRLF → LF), so hunks and markers cannot drift apart.
 */
export function createUnifiedDiff(options: { path: string; before: string; after: string }): string {
  const before = options.before.replace(/\r\n/g, '\n');
  const after = options.after.replace(/\r\n/g, '\n');
  return createTwoFilesPatch(options.path, options.path, before, after, 'original', 'modified');
}
