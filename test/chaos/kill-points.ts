import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { seededRandom } from '../../src/spec/seeded-random.js';
import type { CliResult, startCli } from '../support/run-cli-process.js';

/**
 * The chaos suites' knobs. `CONFIDANT_SOAK=1` runs many more kill points (minutes, not seconds);
 * `CONFIDANT_CHAOS_SEED=<n>` replays another sequence of kill points (the seed is in every test
 * title, so a failure names the seed that reproduces it). See `docs/security.md`.
 */
export const chaos = {
  soak: process.env.CONFIDANT_SOAK === '1',
  seed: Number(process.env.CONFIDANT_CHAOS_SEED ?? '20261202'),
};

/** A seeded source of floats in [0, 1) and integers in [min, max]. */
export function chaosRandom(seed: number): { next: () => number; int: (min: number, max: number) => number } {
  const random = seededRandom(seed);
  return { next: random.next, int: random.int };
}

/** What `samples.jsonl` holds: the ids of its complete lines, in order, and whether a torn line ends it. */
export type SamplesScan = { ids: string[]; tornTail: boolean };

/**
 * Reads `samples.jsonl`: every line that ends in a newline must be a whole JSON record (a torn line
 * anywhere but at the very end fails the test); only the last line may be cut short, as a kill -9
 * in the middle of an append leaves it.
 */
export function scanSamples(runDir: string): SamplesScan {
  const file = join(runDir, 'samples.jsonl');
  if (!existsSync(file)) return { ids: [], tornTail: false };
  const lines = readFileSync(file, 'utf8').split('\n');
  const tail = lines.pop() ?? '';
  const ids = lines.map((line, index) => {
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      throw new Error(`${file}: line ${index + 1} of ${lines.length} is torn: ${line.slice(0, 80)}…`);
    }
    const id = typeof record === 'object' && record !== null ? Reflect.get(record, 'id') : undefined;
    if (typeof id !== 'string') throw new Error(`${file}: line ${index + 1} has no sample id`);
    return id;
  });
  return { ids, tornTail: tail !== '' };
}

/** Fails unless `ids` has no duplicate; the ids of every record that was finished once stay recorded once. */
export function expectNoDuplicates(ids: readonly string[]): void {
  const seen = new Set<string>();
  const duplicates = ids.filter((id) => seen.has(id) || !seen.add(id));
  expect(duplicates).toEqual([]);
}

/**
 * Sends SIGKILL to `child` once `ready()` holds, `jitterMs` later (polling every millisecond), and
 * resolves with how the process ended: killed, or on its own when it finished first.
 */
export async function killWhen(options: {
  started: ReturnType<typeof startCli>;
  ready: () => boolean;
  jitterMs: number;
}): Promise<{ result: CliResult; killed: boolean }> {
  const { child, done } = options.started;
  let exited = false;
  void done.then(() => {
    exited = true;
  });
  const poll = setInterval(() => {
    let ready = false;
    try {
      ready = options.ready();
    } catch {
      // A file the condition reads is being created; look again.
    }
    if (!ready || exited) return;
    clearInterval(poll);
    setTimeout(() => {
      if (!exited) child.kill('SIGKILL');
    }, options.jitterMs);
  }, 1);
  const result = await done;
  clearInterval(poll);
  return { result, killed: result.signal === 'SIGKILL' };
}
