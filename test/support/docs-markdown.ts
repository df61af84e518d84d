import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Reading the project's Markdown as the docs tests need it: the doc files, their links and heading
 * anchors, and the `confidant …` commands of their fenced shell blocks with the markers that say
 * which of them cannot run in a test.
 *
 * Markers are HTML comments on the line before a fenced block (invisible on GitHub):
 * - `<!-- needs: provider -->` (or `network`, `upstream-data`, `llamacpp`, `local-copy`, …): the
 *   block's commands are not run; the test lists each one as skipped with that reason;
 * - `<!-- exit: 2 -->`: the block's commands are expected to exit with this code (default 0);
 * - `<!-- dry-run: no (why) -->`: a `run` among them cannot be planned with `--dry-run` on its own
 *   (it reads what an earlier command made, or a shell variable);
 * - `<!-- file: name.json -->`: the block is a file the page's commands read; the test writes it
 *   into the working directory before running them.
 */

/** One `confidant` command found in a fenced block. */
export type DocCommand = {
  /** The doc file, relative to the repository root. */
  file: string;
  /** 1-based line of the command's first line. */
  line: number;
  /** The command as written (continuation lines joined, trailing comment removed). */
  text: string;
  /** The CLI arguments after `confidant` (quotes removed), placeholders kept as written. */
  args: string[];
  /** Why it is not run, from a `needs:` marker; undefined when it runs. */
  needs?: string;
  /** Expected exit code. */
  exit: number;
  /** False when a `<!-- dry-run: no -->` marker says the command cannot be planned on its own. */
  dryRun: boolean;
  /** Problems that make the line unusable as a shell command (unquoted `>`, `|`, …). */
  problems: string[];
};

/** A link `[text](target)` in a doc file. */
export type DocLink = { file: string; line: number; target: string };

/** The Markdown files of the docs: README.md and everything under docs/, sorted. */
export function listDocFiles(repoRoot: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.md') ? [relative(repoRoot, path)] : [];
    });
  return ['README.md', ...walk(join(repoRoot, 'docs')).sort()];
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(markdown: string): Array<{ text: string; line: number }> {
  const result: Array<{ text: string; line: number }> = [];
  let fence: string | null = null;
  markdown.split('\n').forEach((text, index) => {
    const opening = /^\s*(```+|~~~+)/.exec(text);
    if (fence === null && opening) fence = opening[1]!;
    else if (fence !== null && text.trim().startsWith(fence)) fence = null;
    else if (fence === null) result.push({ text, line: index + 1 });
  });
  return result;
}

/** Every inline link of a Markdown file (outside code blocks and inline code). */
export function extractLinks({ file, markdown }: { file: string; markdown: string }): DocLink[] {
  const links: DocLink[] = [];
  for (const { text, line } of proseLines(markdown)) {
    const withoutCode = text.replace(/`[^`]*`/g, '');
    for (const match of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      links.push({ file, line, target: match[1]! });
    }
  }
  return links;
}

/** GitHub's anchor for a heading text: lower case, punctuation dropped, spaces as hyphens. */
export function githubSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown file's headings define (duplicates numbered `-1`, `-2` as GitHub does). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!heading) continue;
    const slug = githubSlug(heading[1]!);
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  for (const match of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

/** A placeholder such as `<run-id>` or `<dir>` inside a word. */
export const PLACEHOLDER = /<[^<>\s]+>/g;

/**
 * Splits one shell command line into words the way `sh` would for the simple commands the docs
 * use: single and double quotes, backslash escapes, a `#` comment at the start of a word.
 * Shell operators outside quotes (`>`, `<`, `|`, `;`, `&`, `$(`, backticks) are reported as
 * problems, since the line would not run as written; placeholders (`<run-id>`) are not operators.
 */
export function splitShellWords(line: string): { words: string[]; problems: string[] } {
  const words: string[] = [];
  const problems: string[] = [];
  const masked = line.replace(PLACEHOLDER, (placeholder) => '\u0000'.repeat(placeholder.length));
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    const isPlaceholder = masked[index] === '\u0000';
    if (quote !== null) {
      if (char === quote) quote = null;
      else if (char === '\\' && quote === '"' && index + 1 < line.length) word += line[++index];
      else word += char;
      continue;
    }
    if (isPlaceholder) {
      word += char;
      inWord = true;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\' && index + 1 < line.length) {
      word += line[++index];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (char === '#' && !inWord) {
      break;
    } else if ('><|;&`'.includes(char) || (char === '$' && line[index + 1] === '(')) {
      problems.push(`unquoted '${char}' at column ${index + 1} (the shell would treat it as an operator)`);
      word += char;
      inWord = true;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== null) problems.push(`unterminated ${quote} quote`);
  if (inWord) words.push(word);
  return { words, problems };
}

const SHELL_FENCES = new Set(['sh', 'bash', 'shell', 'console', 'zsh']);

/**
 * Every `confidant …` / `npx confidant …` command in the fenced shell blocks of a Markdown file,
 * with the block's markers. Lines ending in `\` continue on the next line.
 */
export function extractCommands({ file, markdown }: { file: string; markdown: string }): DocCommand[] {
  const lines = markdown.split('\n');
  const commands: DocCommand[] = [];
  let inBlock = false;
  let runnable = false;
  let needs: string | undefined;
  let exit = 0;
  let dryRun = true;
  for (let index = 0; index < lines.length; index += 1) {
    const text = lines[index]!;
    const fence = /^\s*```(\S*)/.exec(text);
    if (!inBlock && fence) {
      inBlock = true;
      runnable = SHELL_FENCES.has(fence[1]!.toLowerCase());
      ({ needs, exit, dryRun } = blockMarkers(lines, index));
      continue;
    }
    if (inBlock && /^\s*```\s*$/.test(text)) {
      inBlock = false;
      continue;
    }
    if (!inBlock || !runnable || !/^\s*(npx\s+)?confidant(\s|$)/.test(text)) continue;
    let joined = text;
    const start = index;
    while (/\\\s*$/.test(joined) && index + 1 < lines.length) {
      index += 1;
      joined = `${joined.replace(/\\\s*$/, ' ')}${lines[index]!.trim()}`;
    }
    const { words, problems } = splitShellWords(joined.trim());
    const args = words.slice(words[0] === 'npx' ? 2 : 1);
    commands.push({
      file,
      line: start + 1,
      text: words.join(' '),
      args,
      ...(needs === undefined ? {} : { needs }),
      exit,
      dryRun,
      problems,
    });
  }
  return commands;
}

/** The `needs:` and `exit:` markers in the comment lines just above a fence. */
function blockMarkers(
  lines: readonly string[],
  fenceIndex: number,
): { needs: string | undefined; exit: number; dryRun: boolean } {
  let needs: string | undefined;
  let exit = 0;
  let dryRun = true;
  for (let index = fenceIndex - 1; index >= 0; index -= 1) {
    const marker = /^\s*<!--\s*(needs|exit|dry-run|file):\s*(.*?)\s*-->\s*$/.exec(lines[index]!);
    if (!marker) break;
    if (marker[1] === 'needs') needs = marker[2];
    else if (marker[1] === 'exit') exit = Number(marker[2]);
    else if (marker[1] === 'dry-run') dryRun = !marker[2]!.startsWith('no');
  }
  return { needs, exit, dryRun };
}

/** A fenced block marked `<!-- file: <name> -->`: a file the page's commands use. */
export type DocFile = { name: string; content: string };

/** Every fenced block of a Markdown file that is marked as a file. */
export function extractFiles(markdown: string): DocFile[] {
  return [...markdown.matchAll(/^<!--\s*file:\s*(\S+)\s*-->\n```[^\n]*\n([\s\S]*?)^```/gm)].map((match) => ({
    name: match[1]!,
    content: match[2]!,
  }));
}

/** Reads a doc file relative to the repository root. */
export function readDoc(repoRoot: string, file: string): string {
  return readFileSync(join(repoRoot, file), 'utf8');
}
