import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';
import { ConfidantError } from '../../src/spec/errors.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import type { CliResult } from '../support/run-cli-process.js';

/**
 * The seed every property uses unless `CONFIDANT_FUZZ_SEED` says otherwise: CI runs the same inputs
 * each time, so a red build is a defect someone can replay, never a coin toss. Exploring new inputs
 * is asked for (`CONFIDANT_FUZZ_SEED=random`, or the soak).
 */
export const DEFAULT_FUZZ_SEED = 20_261_203;

/**
 * The seed from `CONFIDANT_FUZZ_SEED`: unset gives {@link DEFAULT_FUZZ_SEED} (or a fresh seed under
 * the soak), `random` a fresh seed, an integer replays that seed. Anything else throws, so a typo
 * never silently runs the default.
 */
export function fuzzSeedFromEnv({ value, soak }: { value: string | undefined; soak: boolean }): {
  seed: number;
  fresh: boolean;
} {
  const text = value?.trim() ?? '';
  if (text === '' ? soak : text === 'random') return { seed: (Math.random() * 2 ** 31) | 0, fresh: true };
  if (text === '') return { seed: DEFAULT_FUZZ_SEED, fresh: false };
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new Error(`CONFIDANT_FUZZ_SEED must be an integer or "random", got ${JSON.stringify(value)}`);
  }
  return { seed: Number(text), fresh: false };
}

const soak = process.env.CONFIDANT_SOAK === '1';
const seedChoice = fuzzSeedFromEnv({ value: process.env.CONFIDANT_FUZZ_SEED, soak });
// A fresh seed is printed up front (fast-check prints it again beside a failure), so a run that
// found something can be replayed with CONFIDANT_FUZZ_SEED=<seed>.
if (seedChoice.fresh)
  console.info(`fuzz: fresh seed ${seedChoice.seed} (replay with CONFIDANT_FUZZ_SEED=${seedChoice.seed})`);

/**
 * The fuzz suites' knobs. Each property runs a bounded number of inputs so the suite stays within
 * CI's budget; `CONFIDANT_SOAK=1` multiplies them by 50 (minutes, not seconds) with a fresh seed,
 * and `CONFIDANT_FUZZ_SEED` picks the seed (see {@link fuzzSeedFromEnv}; fast-check prints the seed
 * and the shrunk counterexample of a failure). See `docs/security.md`.
 */
export const fuzz = { soak, seed: seedChoice.seed };

/** fast-check parameters for a property that runs `numRuns` inputs (× 50 under `CONFIDANT_SOAK=1`). */
export function fuzzParameters(numRuns: number): fc.Parameters<unknown> {
  return { numRuns: fuzz.soak ? numRuns * 50 : numRuns, seed: fuzz.seed };
}

/** A test's time limit that grows with the soak. */
export function fuzzTimeout(ms: number): number {
  return fuzz.soak ? ms * 50 : ms;
}

/**
 * The limit of a test that makes one or two plain dry runs (the undamaged input): a few seconds
 * alone, but it is the first CLI call of its file (it loads the CLI), and CI runs every test file
 * at once on two cores, where the 30 s default leaves too little room. A bound, not a speed check.
 */
export const ONE_DRY_RUN_TIMEOUT_MS = 120_000;

/** How a call on fuzzed input ended: a value, or a thrown error. */
export type FuzzOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs `call` and fails the property unless it returns or throws a user error (a
 * `ConfidantError` with `userError`: the CLI prints its message and exits 2). A `TypeError`, a
 * `RangeError`, a zod error or any other exception is what a user would see as "internal error".
 */
export async function expectValueOrUserError<T>(call: () => T | Promise<T>): Promise<FuzzOutcome<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    expectUserError(error);
    return { ok: false, error };
  }
}

/** Fails unless `error` is a user error with a message. */
export function expectUserError(error: unknown): void {
  if (!(ConfidantError.isInstance(error) && error.userError)) {
    const detail = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error);
    expect.fail(`expected a user error, got ${detail}`);
  }
  expect((error as Error).message.trim()).not.toBe('');
}

/**
 * Fails unless the CLI ended as a user would want on a bad input: exit 0 (the input was fine) or 2
 * with a message, never 1 (an internal error), never a stack trace.
 */
export function expectCliOkOrUserError(result: CliResult, what: string): void {
  const context = `${what}\n--- stderr ---\n${result.stderr}`;
  expect([0, 2], context).toContain(result.code);
  expect(result.stderr, context).not.toContain('internal error');
  expect(result.stderr, context).not.toMatch(/\n\s+at \S/);
  if (result.code === 2) expect(result.stderr.trim(), context).not.toBe('');
}

/** Characters that break parsers: JSON punctuation, quotes, escapes, control and odd Unicode. */
const NASTY = [
  '"',
  "'",
  '\\',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '\n',
  '\r\n',
  '\t',
  '\u0000',
  '\u2028',
  '\uFEFF',
  '\uFFFD',
  '\uD800',
  '😀',
  '=',
  '@',
  '/',
  '%',
  '..',
  '-',
  '--',
  '1e999',
  'NaN',
  'null',
  '__proto__',
];

/** A short string that leans on {@link NASTY} characters. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom(...NASTY),
  fc.array(fc.constantFrom(...NASTY), { maxLength: 5 }).map((parts) => parts.join('')),
);

/** One edit of a text: replace `deleteCount` characters at `at` (a fraction of the length) by `insert`. */
const textEdit = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  deleteCount: fc.nat({ max: 40 }),
  insert: nastyString,
});

/**
 * Garbled versions of `text` (a valid data file): cut short at any point, a few splices of nasty
 * characters, lines dropped, repeated or shuffled, the bytes as another encoding would read them,
 * or something unrelated altogether. Shrinks towards small damage.
 */
export function garbledText(text: string): fc.Arbitrary<string> {
  const lines = text.split('\n');
  return fc.oneof(
    fc.nat({ max: text.length }).map((end) => text.slice(0, end)),
    fc.array(textEdit, { minLength: 1, maxLength: 4 }).map((edits) =>
      edits.reduce((current, edit) => {
        const at = Math.floor(edit.at * current.length);
        return current.slice(0, at) + edit.insert + current.slice(at + edit.deleteCount);
      }, text),
    ),
    fc
      .array(fc.nat({ max: Math.max(0, lines.length - 1) }), { maxLength: lines.length + 3 })
      .map((picks) => picks.map((index) => lines[index]).join('\n')),
    fc.constant(Buffer.from(text, 'utf8').toString('latin1')),
    fc.constantFrom('', '\n', '\n\n\n', ' ', '\uFEFF', '\u0000', 'null', '[]', '{}', '"text"', '0'),
    fc.string({ unit: 'binary', maxLength: 200 }),
  );
}

/** A JSON value of any shape, with the keys parsers trip on (`__proto__`, `constructor`, empty). */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, true, 0, -1, 1e308, '', 'x', [], {}, [[]], JSON.parse('{"__proto__":{"polluted":1}}')),
  fc.dictionary(
    fc.constantFrom('__proto__', 'constructor', 'toString', '', 'id', 'name'),
    fc.jsonValue({ maxDepth: 1 }),
  ),
);

type JsonPath = Array<string | number>;

/** Every path to a value inside `value` (the root included), for picking where to damage. */
function jsonPaths(value: unknown, prefix: JsonPath = [], into: JsonPath[] = []): JsonPath[] {
  into.push(prefix);
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) jsonPaths(item, [...prefix, index], into);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) jsonPaths(item, [...prefix, key], into);
  }
  return into;
}

type JsonEdit =
  | { kind: 'replace'; pick: number; value: unknown }
  | { kind: 'delete'; pick: number }
  | { kind: 'duplicate'; pick: number }
  | { kind: 'rename'; pick: number; name: string };

const jsonEdit: fc.Arbitrary<JsonEdit> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), value: anyJson }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('rename' as const), pick: fc.nat(), name: nastyString }),
);

/** Sets an own property, even one named `__proto__` (plain assignment would set the prototype). */
function setKey(target: Record<string | number, unknown>, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
}

/** Applies one edit to a deep copy of `root`, at the `pick`-th path (modulo their number). */
function applyJsonEdit(root: unknown, edit: JsonEdit): unknown {
  const paths = jsonPaths(root);
  const path = paths[edit.pick % paths.length]!;
  if (path.length === 0) return edit.kind === 'replace' ? edit.value : root;
  const copy: unknown = structuredClone(root);
  let parent = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (edit.kind === 'replace') setKey(parent, last, edit.value);
  else if (edit.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (edit.kind === 'duplicate') {
    if (Array.isArray(parent)) parent.splice(Number(last), 0, structuredClone(parent[Number(last)]));
    else setKey(parent, last, [parent[last], parent[last]]);
  } else if (!Array.isArray(parent)) {
    const value = parent[last];
    delete parent[last];
    setKey(parent, edit.name, value);
  }
  return copy;
}

/**
 * Damaged versions of a valid JSON document `valid`: one to four fields replaced by a value of
 * another shape, deleted, duplicated or renamed, so the damage reaches past the syntax check into
 * the schema and the rule checks.
 */
export function damagedJson(valid: unknown): fc.Arbitrary<unknown> {
  return fc.array(jsonEdit, { minLength: 1, maxLength: 4 }).map((edits) => edits.reduce(applyJsonEdit, valid));
}

/** The text of a damaged JSON document: {@link damagedJson} serialised, or the valid text garbled. */
export function damagedJsonText(valid: unknown): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: damagedJson(valid).map((value) => JSON.stringify(value, null, 2) ?? 'undefined') },
    { weight: 1, arbitrary: garbledText(JSON.stringify(valid, null, 2)) },
  );
}

/** A temp folder for one fuzz file, and the CLI run in this process inside it (no API key set). */
export function fuzzWorkspace(name: string): {
  dir: () => string;
  /** A fresh folder under the workspace for one input. */
  fresh: () => string;
  cli: (args: string[]) => Promise<CliResult>;
  open: () => void;
  close: () => void;
} {
  let work = '';
  let count = 0;
  return {
    dir: () => work,
    fresh: () => {
      count += 1;
      const path = join(work, `input-${count}`);
      mkdirSync(path);
      return path;
    },
    cli: (args) => runCliInProcess({ args, env: { HOME: work, CONFIDANT_CACHE_DIR: join(work, 'cache') }, cwd: work }),
    open: () => {
      work = mkdtempSync(join(tmpdir(), `confidant-fuzz-${name}-`));
    },
    close: () => rmSync(work, { recursive: true, force: true }),
  };
}

/** Writes `files` (path relative to `root` → text) under `root`, creating folders. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}
