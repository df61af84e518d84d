import { ToolError } from './tool-error.js';

/**
 * Glob matching for `search_files` and the exclude patterns of `search_files` / `directory_tree`,
 * with the semantics the official filesystem server gets from `minimatch(path, pattern, { dot: true })`:
 * `*` and `?` stay within one path segment and match leading dots; `**` as a whole segment spans
 * segments (zero or more, but a trailing `**` needs at least one); `[...]` classes (`!`/`^`
 * negation, ranges, POSIX names); `{a,b}` and `{1..3}` braces; `@(…)`, `?(…)`, `*(…)`, `+(…)`
 * and an approximate `!(…)`; a leading `!` negates and a leading `#` matches nothing; `\` escapes.
 * Matching is case-sensitive and a pattern without `/` only matches top-level names.
 */
export function matchesGlob(path: string, pattern: string): boolean {
  return globMatcher(pattern)(path);
}

/** {@link matchesGlob} with the pattern compiled once, for matching many paths. */
export function globMatcher(pattern: string): (path: string) => boolean {
  if (pattern.startsWith('#')) return () => false;
  let negate = false;
  let body = pattern;
  while (body.startsWith('!')) {
    negate = !negate;
    body = body.slice(1);
  }
  const alternatives = expandBraces(body).map(compile);
  return (path) => {
    const segments = path.split('/');
    return alternatives.some((alternative) => matchSegments(segments, alternative)) !== negate;
  };
}

type CompiledSegment = '**' | RegExp;

function compile(pattern: string): CompiledSegment[] {
  const parts = pattern.split('/');
  const compiled: CompiledSegment[] = [];
  for (const part of parts) {
    if (part === '**') {
      // Consecutive globstars mean the same as one.
      if (compiled[compiled.length - 1] !== '**') compiled.push('**');
      continue;
    }
    compiled.push(segmentRegex(part));
  }
  return compiled;
}

/** A segment the regex engine rejects (e.g. the range `[z-a]`) matches nothing, as in minimatch. */
function segmentRegex(part: string): RegExp {
  try {
    return new RegExp(`^${segmentSource(part)}$`, 'u');
  } catch {
    return /(?!)/;
  }
}

function matchSegments(path: string[], pattern: CompiledSegment[]): boolean {
  const memo = new Map<string, boolean>();
  const match = (fileIndex: number, patternIndex: number): boolean => {
    const key = `${fileIndex}:${patternIndex}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    const part = pattern[patternIndex];
    if (part === undefined) {
      result = fileIndex === path.length;
    } else if (part === '**') {
      const isLast = patternIndex === pattern.length - 1;
      const first = isLast ? fileIndex + 1 : fileIndex;
      result = false;
      for (let next = first; next <= path.length && !result; next++) result = match(next, patternIndex + 1);
    } else {
      const segment = path[fileIndex];
      result = segment !== undefined && part.test(segment) && match(fileIndex + 1, patternIndex + 1);
    }
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: '\\p{L}\\p{Nl}\\p{Nd}',
  alpha: '\\p{L}\\p{Nl}',
  digit: '\\p{Nd}',
  lower: '\\p{Ll}',
  upper: '\\p{Lu}',
  space: '\\p{Z}\\t\\r\\n\\v\\f',
  punct: '\\p{P}',
  xdigit: 'A-Fa-f0-9',
  word: '\\p{L}\\p{Nl}\\p{Nd}\\p{Pc}',
  blank: '\\p{Zs}\\t',
};

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/** Reads a `[...]` class starting at `start`; `null` when it never closes (then `[` is literal). */
function readClass(pattern: string, start: number): { source: string; end: number } | null {
  let index = start + 1;
  let negated = false;
  if (pattern[index] === '!' || pattern[index] === '^') {
    negated = true;
    index++;
  }
  let body = '';
  let first = true;
  while (index < pattern.length) {
    const char = pattern[index]!;
    if (char === ']' && !first) return { source: `[${negated ? '^' : ''}${body}]`, end: index + 1 };
    first = false;
    if (char === '[' && pattern[index + 1] === ':') {
      const close = pattern.indexOf(':]', index + 2);
      const name = close < 0 ? undefined : POSIX_CLASSES[pattern.slice(index + 2, close)];
      if (name !== undefined) {
        body += name;
        index = close + 2;
        continue;
      }
    }
    if (char === '\\' && index + 1 < pattern.length) {
      const escaped = pattern[index + 1]!;
      body += escaped === '-' ? '\\-' : escapeRegex(escaped);
      index += 2;
      continue;
    }
    body += char === '-' ? '-' : escapeRegex(char);
    index++;
  }
  return null;
}

/** The closing `)` of an extglob group opened at `open`, or -1. */
function closingParen(pattern: string, open: number): number {
  let depth = 0;
  for (let index = open; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === '\\') index++;
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return index;
  }
  return -1;
}

function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '\\') {
      current += char + (text[index + 1] ?? '');
      index++;
      continue;
    }
    if (char === '(' || char === '{') depth++;
    if (char === ')' || char === '}') depth--;
    if (char === separator && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/** Regex source for one path segment. */
function segmentSource(pattern: string): string {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    const next = pattern[index + 1];
    if ('@?*+!'.includes(char) && next === '(') {
      const close = closingParen(pattern, index + 1);
      if (close > 0) {
        const inner = splitTopLevel(pattern.slice(index + 2, close), '|')
          .map(segmentSource)
          .join('|');
        source +=
          char === '@'
            ? `(?:${inner})`
            : char === '?'
              ? `(?:${inner})?`
              : char === '*'
                ? `(?:${inner})*`
                : char === '+'
                  ? `(?:${inner})+`
                  : `(?:(?!(?:${inner})$)[^/]*?)`;
        index = close;
        continue;
      }
    }
    if (char === '\\') {
      source += escapeRegex(next ?? '\\');
      index++;
    } else if (char === '*') {
      source += '[^/]*';
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[') {
      const found = readClass(pattern, index);
      if (found === null) source += '\\[';
      else {
        source += found.source;
        index = found.end - 1;
      }
    } else {
      source += escapeRegex(char);
    }
  }
  return source;
}

/** More alternatives than this is a mistake (or an attack), not a search. */
export const MAX_BRACE_EXPANSIONS = 10_000;

/**
 * Brace expansion: `a{b,c{d,e}}` → `ab`, `acd`, `ace`; `{1..3}` and `{a..c}` ranges; `{x}` stays
 * literal. A pattern expanding to more than {@link MAX_BRACE_EXPANSIONS} alternatives is a `ToolError`.
 */
export function expandBraces(pattern: string): string[] {
  const expanded = expandAll(pattern);
  if (expanded.length > MAX_BRACE_EXPANSIONS) throw tooMany();
  return expanded;
}

function tooMany(): ToolError {
  return new ToolError(`Glob pattern expands to more than ${MAX_BRACE_EXPANSIONS} alternatives`);
}

function expandAll(pattern: string): string[] {
  let depth = 0;
  let open = -1;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === '\\') {
      index++;
      continue;
    }
    if (char === '{') {
      if (depth === 0) open = index;
      depth++;
    } else if (char === '}' && depth > 0) {
      depth--;
      if (depth === 0) {
        const before = pattern.slice(0, open);
        const inner = pattern.slice(open + 1, index);
        const after = pattern.slice(index + 1);
        const options = braceOptions(inner);
        if (options === null) {
          // Not a brace expression: keep it literally and expand what follows.
          return expandAll(after).map((rest) => `${before}\\{${inner}\\}${rest}`);
        }
        const tails = expandAll(after);
        const expanded: string[] = [];
        for (const option of options) {
          for (const head of expandAll(`${before}${option}`)) {
            if (expanded.length + tails.length > MAX_BRACE_EXPANSIONS) throw tooMany();
            for (const tail of tails) expanded.push(head + tail);
          }
        }
        return expanded;
      }
    }
  }
  return [pattern];
}

function braceOptions(inner: string): string[] | null {
  const parts = splitTopLevel(inner, ',');
  if (parts.length > 1) return parts;
  const numeric = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  if (numeric) {
    const from = Number(numeric[1]);
    const to = Number(numeric[2]);
    const step = Math.max(1, Math.abs(Number(numeric[3] ?? 1)));
    if (Math.abs(to - from) / step >= MAX_BRACE_EXPANSIONS) throw tooMany();
    const width = /^-?0\d/.test(numeric[1]!) || /^-?0\d/.test(numeric[2]!) ? numeric[1]!.length : 0;
    const values: string[] = [];
    for (let value = from; from <= to ? value <= to : value >= to; value += from <= to ? step : -step) {
      values.push(String(value).padStart(width, '0'));
    }
    return values;
  }
  const alpha = /^([A-Za-z])\.\.([A-Za-z])$/.exec(inner);
  if (alpha) {
    const from = alpha[1]!.charCodeAt(0);
    const to = alpha[2]!.charCodeAt(0);
    const values: string[] = [];
    for (let code = from; from <= to ? code <= to : code >= to; code += from <= to ? 1 : -1) {
      values.push(String.fromCharCode(code));
    }
    return values;
  }
  return null;
}
