import { JudgeTemplateError } from './judge-template-error.js';

/** A front-matter value: a scalar string or a list of strings. Numbers stay strings; callers convert. */
export type FrontMatterValue = string | string[];

/** The result of splitting a Markdown file into its front matter and its body. */
export type FrontMatter = { data: Record<string, FrontMatterValue>; body: string };

const KEY_LINE = /^([A-Za-z][A-Za-z0-9_-]*):(?:[ \t]+(.*?))?[ \t]*$/;
const LIST_ITEM_LINE = /^[ \t]*-[ \t]+(.*?)[ \t]*$/;
const FENCE_LINE = /^---[ \t]*$/;

/**
 * Parses the small front-matter subset judge templates use, without a YAML dependency.
 *
 * The file must start with a `---` line and the front matter ends at the next `---` line.
 * Supported inside: `key: value` scalars; `key: [a, b]` inline lists; `key:` followed by
 * indented `- item` lines; blank lines and whole-line `#` comments. Values may be wrapped in
 * single quotes (`''` escapes a quote) or double quotes (JSON string escapes). Trailing
 * comments, nested maps and multi-line scalars are not supported and are rejected or kept
 * verbatim, so a template never means something other than what it says.
 *
 * The body is everything after the closing fence, with leading and trailing blank space removed.
 * Throws `JudgeTemplateError` naming `source` and the line for anything it cannot read.
 */
export function parseFrontMatter({ text, source }: { text: string; source: string }): FrontMatter {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (!FENCE_LINE.test(lines[0] ?? '')) {
    throw new JudgeTemplateError(`${source}: a judge template must start with a '---' front-matter line`);
  }
  const end = lines.findIndex((line, index) => index > 0 && FENCE_LINE.test(line));
  if (end === -1) {
    throw new JudgeTemplateError(`${source}: the front matter is not closed; add a '---' line after it`);
  }

  const data: Record<string, FrontMatterValue> = {};
  let openList: { key: string; line: number } | undefined;
  const closeOpenList = () => {
    if (openList !== undefined && (data[openList.key] as string[]).length === 0) {
      throw new JudgeTemplateError(
        `${source}:${openList.line}: '${openList.key}:' has no value; give 'key: value', 'key: [a, b]' or '- item' lines`,
      );
    }
    openList = undefined;
  };

  for (let index = 1; index < end; index += 1) {
    const line = lines[index] ?? '';
    const lineNumber = index + 1;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;

    const item = LIST_ITEM_LINE.exec(line);
    if (item !== null && openList !== undefined) {
      (data[openList.key] as string[]).push(unquote(item[1] ?? '', source, lineNumber));
      continue;
    }
    const keyValue = KEY_LINE.exec(line);
    if (keyValue === null) {
      throw new JudgeTemplateError(
        `${source}:${lineNumber}: expected 'key: value' or an indented '- item' under a 'key:' line, got '${line.trim()}'`,
      );
    }
    closeOpenList();
    const key = keyValue[1] ?? '';
    if (Object.hasOwn(data, key)) {
      throw new JudgeTemplateError(`${source}:${lineNumber}: duplicate front-matter key '${key}'`);
    }
    const raw = keyValue[2];
    if (raw === undefined || raw === '') {
      data[key] = [];
      openList = { key, line: lineNumber };
    } else if (raw.startsWith('[')) {
      data[key] = parseInlineList(raw, source, lineNumber);
    } else {
      data[key] = unquote(raw, source, lineNumber);
    }
  }
  closeOpenList();

  return {
    data,
    body: lines
      .slice(end + 1)
      .join('\n')
      .trim(),
  };
}

function parseInlineList(raw: string, source: string, line: number): string[] {
  if (!raw.endsWith(']')) {
    throw new JudgeTemplateError(`${source}:${line}: an inline list must end with ']' on the same line`);
  }
  const inner = raw.slice(1, -1).trim();
  if (inner === '') return [];
  return inner.split(',').map((item) => unquote(item.trim(), source, line));
}

function unquote(value: string, source: string, line: number): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === 'string') return parsed;
    } catch {
      // fall through to the error below
    }
    throw new JudgeTemplateError(`${source}:${line}: invalid double-quoted string ${value}`);
  }
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) {
    return value.slice(1, -1).replaceAll("''", "'");
  }
  if (value === '') {
    throw new JudgeTemplateError(`${source}:${line}: empty list item`);
  }
  return value;
}
