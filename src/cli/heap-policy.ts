import { setFlagsFromString } from 'node:v8';

/** How far V8 lets the old generation grow past what survived the last full collection: 1.5×. */
export const HEAP_GROWING_PERCENT = 50;

let applied = false;

/**
 * Makes a long command's memory follow what it keeps rather than how long it runs. A run at 256
 * requests in flight promotes tens of MB a second of short-lived call state; V8 by default lets the
 * old generation grow to about 4× what survived the last full collection before it collects again,
 * so a 20,000-sample run sat at 1.8× the resident memory of a 2,000-sample one with nearly the same
 * live heap. Capping the growth at 1.5× keeps the resident memory near the live heap for a few more
 * (incremental) full collections: it costs CPU in allocation-heavy passes (about 1.3 s more for the
 * summary of a 20,000-sample ConfAIde run, whose bootstrap allocates most). A
 * `--heap-growing-percent` given to node itself (`node --heap-growing-percent=0 …` restores V8's
 * default; `NODE_OPTIONS` does not accept the flag) is left alone. Called by `run`, `resume`,
 * `rescore`, `merge`, `report --per-sample` and `--format html`, `compare` and `view`; for those
 * command lines the bundled CLI's loader (bundled-main.ts) applies it first, before it compiles the CLI.
 */
export function applyHeapPolicy({ execArgv }: { execArgv: readonly string[] }): boolean {
  if (execArgv.some((flag) => /^--heap[-_]growing[-_]percent\b/.test(flag))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  applied = true;
  return true;
}

/**
 * Whether {@link applyHeapPolicy} changed V8's flags in this process. V8 keys a code cache by its
 * flags, so the CLI's code cache (code-cache.ts) is stored per flag state.
 */
export function heapPolicyApplied(): boolean {
  return applied;
}

/** The commands that apply the heap policy (see {@link applyHeapPolicy}). */
const HEAP_POLICY_COMMANDS = new Set(['run', 'resume', 'rescore', 'merge', 'compare', 'view']);

/**
 * Whether a command line will apply the heap policy, told from its words before any command
 * loads: `run`, `resume`, `rescore`, `merge`, `compare`, `view`, and `report` with `--per-sample` or
 * `--format html`, unless node was given a
 * growth policy. A guess (a dry run, or a command that fails early, applies none): the code cache
 * uses it only to pick the cache built under the same V8 flags, and {@link heapPolicyApplied}
 * says afterwards whether it held.
 */
export function heapPolicyExpected({
  argv,
  execArgv,
}: {
  argv: readonly string[];
  execArgv: readonly string[];
}): boolean {
  if (execArgv.some((flag) => /^--heap[-_]growing[-_]percent\b/.test(flag))) return false;
  const words = argv.slice(2);
  const command = words.find((word) => !word.startsWith('-'));
  if (command === undefined) return false;
  if (HEAP_POLICY_COMMANDS.has(command)) return true;
  if (command !== 'report') return false;
  const html = words.some(
    (word, index) => word === '--format=html' || (word === '--format' && words[index + 1] === 'html'),
  );
  return html || words.includes('--per-sample');
}
