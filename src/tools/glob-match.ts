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

/** One path segment of a pattern, compiled to an automaton (see {@link SegmentMatcher}). */
type CompiledSegment = '**' | SegmentMatcher;

function compile(pattern: string): CompiledSegment[] {
  // As minimatch does, `a//b` means `a/b` (a leading `/` stays).
  const split = pattern.split('/');
  const parts = split.filter((part, index) => part !== '' || index === 0 || index === split.length - 1);
  const compiled: CompiledSegment[] = [];
  for (const part of parts) {
    if (part === '**') {
      // Consecutive globstars mean the same as one.
      if (compiled[compiled.length - 1] !== '**') compiled.push('**');
      continue;
    }
    compiled.push(new SegmentMatcher(part));
  }
  return compiled;
}

/**
 * Path segments against pattern segments; memoised on (segment, pattern segment), so `**` costs
 * at most one pass per pair: O(path segments × pattern segments) segment matches.
 */
function matchSegments(path: string[], pattern: CompiledSegment[]): boolean {
  const memo = new Map<number, boolean>();
  const width = pattern.length + 1;
  const match = (fileIndex: number, patternIndex: number): boolean => {
    const key = fileIndex * width + patternIndex;
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
      // `**` never walks through `.` or `..`.
      for (let next = first; next <= path.length && !result; next++) {
        if (next > fileIndex && isDots(path[next - 1]!)) break;
        result = match(next, patternIndex + 1);
      }
    } else {
      const segment = path[fileIndex];
      result = segment !== undefined && part.test(segment) && match(fileIndex + 1, patternIndex + 1);
    }
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
}

const isDots = (segment: string): boolean => segment === '.' || segment === '..';

/** A parsed segment: one character (literal, `?` or a class), `*`, or an extglob group. */
type GlobNode =
  | { type: 'char'; test: (char: string) => boolean; literal?: string }
  | { type: 'star' }
  | { type: 'group'; kind: '@' | '?' | '*' | '+' | '!'; alternatives: GlobNode[][] };

/**
 * NFA states. `consume` reads one character; `split` is an ε-move to each of `next`; `not` is
 * minimatch's negative lookahead for `!(…)`: it fails where `probe` (the group's body followed by
 * the rest of the segment) matches the remaining text, and otherwise continues at `next`.
 */
type NfaState =
  | { kind: 'consume'; test: (char: string) => boolean; next: number }
  | { kind: 'split'; next: number[] }
  | { kind: 'not'; probe: number; next: number }
  | { kind: 'accept' };

const anyChar = (): boolean => true;

/**
 * One pattern segment as a Thompson NFA, simulated with state sets: matching a name of n
 * characters against a segment of m tokens takes O(n × m) steps, plus O(n × m) per `!(…)` group
 * and start position (memoised), whatever the pattern. Unlike a backtracking regex (minimatch
 * compiles to one, and `*a*a*a…*ab` over `aaaa…` then runs for hours), no pattern can make this
 * exponential; the same semantics as the regex minimatch builds with `{ dot: true }`.
 */
class SegmentMatcher {
  readonly #states: NfaState[] = [];
  readonly #start: number;
  /** The segment itself when it has no magic (only a literal then matches `.` or `..`). */
  readonly #literal: string | undefined;

  constructor(pattern: string) {
    const accept = this.#add({ kind: 'accept' });
    const nodes = parseSegment(pattern);
    this.#start = this.#build(nodes, accept);
    this.#literal = nodes.every((node) => node.type === 'char' && node.literal !== undefined)
      ? nodes.map((node) => (node.type === 'char' ? node.literal : '')).join('')
      : undefined;
  }

  #add(state: NfaState): number {
    this.#states.push(state);
    return this.#states.length - 1;
  }

  #build(nodes: readonly GlobNode[], next: number): number {
    let at = next;
    for (let index = nodes.length - 1; index >= 0; index--) at = this.#buildNode(nodes[index]!, at);
    return at;
  }

  #star(next: number): number {
    const loop = this.#add({ kind: 'split', next: [] });
    const consume = this.#add({ kind: 'consume', test: anyChar, next: loop });
    this.#states[loop] = { kind: 'split', next: [consume, next] };
    return loop;
  }

  #buildNode(node: GlobNode, next: number): number {
    if (node.type === 'char') return this.#add({ kind: 'consume', test: node.test, next });
    if (node.type === 'star') return this.#star(next);
    const { kind, alternatives } = node;
    if (kind === '!') {
      // `!()` must match something; `!(x)` is (?!(?:x)rest$) followed by any run of characters.
      if (alternatives.every((alternative) => alternative.length === 0)) {
        return this.#add({ kind: 'consume', test: anyChar, next: this.#star(next) });
      }
      const probe = this.#add({
        kind: 'split',
        next: alternatives.map((alternative) => this.#build(alternative, next)),
      });
      return this.#add({ kind: 'not', probe, next: this.#star(next) });
    }
    if (kind === '@' || kind === '?') {
      const starts = alternatives.map((alternative) => this.#build(alternative, next));
      return this.#add({ kind: 'split', next: kind === '?' ? [...starts, next] : starts });
    }
    // `*(…)` and `+(…)`: a loop state that either enters a body again or leaves.
    const loop = this.#add({ kind: 'split', next: [] });
    const starts = alternatives.map((alternative) => this.#build(alternative, loop));
    this.#states[loop] = { kind: 'split', next: [...starts, next] };
    return kind === '*' ? loop : this.#add({ kind: 'split', next: starts });
  }

  test(segment: string): boolean {
    if (isDots(segment)) return segment === this.#literal;
    return this.#matchesFrom({ chars: Array.from(segment), state: this.#start, position: 0, memo: new Map() });
  }

  /** Whether the NFA, entered at `state` before `chars[position]`, accepts at the end. */
  #matchesFrom(options: { chars: string[]; state: number; position: number; memo: Map<number, boolean> }): boolean {
    const { chars, memo } = options;
    const length = chars.length;
    const key = options.state * (length + 1) + options.position;
    const known = memo.get(key);
    if (known !== undefined) return known;
    // `current`: states entered at `position`, closed under ε-moves as they are worked off;
    // `mark[state] === position + 1` when the state is already in it, `markNext` likewise.
    const count = this.#states.length;
    const mark = new Int32Array(count);
    const markNext = new Int32Array(count);
    let current = [options.state];
    mark[options.state] = options.position + 1;
    let accepted = false;
    for (let position = options.position; position <= length && !accepted; position++) {
      const stamp = position + 1;
      const advanced: number[] = [];
      const char = chars[position];
      while (current.length > 0) {
        const index = current.pop()!;
        const state = this.#states[index]!;
        if (state.kind === 'accept') {
          if (position === length) accepted = true;
        } else if (state.kind === 'split') {
          for (const next of state.next) {
            if (mark[next] !== stamp) {
              mark[next] = stamp;
              current.push(next);
            }
          }
        } else if (state.kind === 'not') {
          if (mark[state.next] !== stamp && !this.#matchesFrom({ chars, state: state.probe, position, memo })) {
            mark[state.next] = stamp;
            current.push(state.next);
          }
        } else if (char !== undefined && markNext[state.next] !== stamp && state.test(char)) {
          markNext[state.next] = stamp;
          advanced.push(state.next);
        }
      }
      if (advanced.length === 0) break;
      for (const next of advanced) mark[next] = stamp + 1;
      current = advanced;
    }
    memo.set(key, accepted);
    return accepted;
  }
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

/** A `[...]` class as a test of one character; a class the regex engine rejects matches nothing. */
function classTest(source: string): (char: string) => boolean {
  try {
    const regex = new RegExp(`^${source}$`, 'u');
    return (char) => regex.test(char);
  } catch {
    return () => false;
  }
}

/** Parses one path segment into {@link GlobNode}s (`\\` escapes; unclosed `[` and `(` are literal). */
function parseSegment(pattern: string): GlobNode[] {
  const nodes: GlobNode[] = [];
  const literal = (char: string): GlobNode => ({ type: 'char', test: (other) => other === char, literal: char });
  // Literals are whole code points, so `?` and literals match what a `u`-flag regex would.
  const codePointAt = (index: number): string => String.fromCodePoint(pattern.codePointAt(index)!);
  let index = 0;
  while (index < pattern.length) {
    const char = codePointAt(index);
    const next = pattern[index + char.length];
    if ('@?*+!'.includes(char) && next === '(') {
      const close = closingParen(pattern, index + 1);
      if (close > 0) {
        const inner = pattern.slice(index + 2, close);
        const kind = char as '@' | '?' | '*' | '+' | '!';
        nodes.push({ type: 'group', kind, alternatives: splitTopLevel(inner, '|').map(parseSegment) });
        index = close + 1;
        continue;
      }
    }
    if (char === '\\') {
      const escaped = index + 1 < pattern.length ? codePointAt(index + 1) : '\\';
      nodes.push(literal(escaped));
      index += 1 + (index + 1 < pattern.length ? escaped.length : 0);
      continue;
    }
    if (char === '[') {
      const found = readClass(pattern, index);
      if (found !== null) {
        nodes.push({ type: 'char', test: classTest(found.source) });
        index = found.end;
        continue;
      }
    }
    if (char === '*') {
      if (nodes[nodes.length - 1]?.type !== 'star') nodes.push({ type: 'star' });
    } else if (char === '?') {
      nodes.push({ type: 'char', test: anyChar });
    } else {
      nodes.push(literal(char));
    }
    index += char.length;
  }
  return nodes;
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
