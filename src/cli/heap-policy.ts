import { setFlagsFromString } from 'node:v8';

/** How far V8 lets the old generation grow past what survived the last full collection: 1.5×. */
export const HEAP_GROWING_PERCENT = 50;

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
 * `rescore`, `merge`, `report --per-sample` and `--format html`, `compare` and `view`.
 */
export function applyHeapPolicy({ execArgv }: { execArgv: readonly string[] }): boolean {
  if (execArgv.some((flag) => /^--heap[-_]growing[-_]percent\b/.test(flag))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
