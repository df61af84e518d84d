import { describe, expect, it } from 'vitest';
import { runPool } from './run-pool.js';

/** A call that settles only when the test says so, to observe what is in flight. */
function gate() {
  const started: number[] = [];
  const release = new Map<number, () => void>();
  const work = (item: number) =>
    new Promise<void>((resolve) => {
      started.push(item);
      release.set(item, resolve);
    });
  const settle = async (item: number) => {
    release.get(item)?.();
    release.delete(item);
    // Let the worker pick up its next item.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, inFlight: () => release.size, work, settle };
}

describe('runPool', () => {
  it('starts items in order with at most `concurrency` in flight, the next one as a call settles', async () => {
    const { started, inFlight, work, settle } = gate();
    const done = runPool({ items: [1, 2, 3, 4, 5], concurrency: 2, work });
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2]);
    await settle(2);
    expect(started).toEqual([1, 2, 3]);
    expect(inFlight()).toBe(2);
    await settle(1);
    await settle(3);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    await settle(4);
    await settle(5);
    await done;
    expect(inFlight()).toBe(0);
  });

  it('runs every item once when there are fewer items than workers, and none for no items', async () => {
    const seen: number[] = [];
    await runPool({ items: [7, 8], concurrency: 16, work: async (item) => void seen.push(item) });
    expect(seen).toEqual([7, 8]);
    await runPool({ items: [], concurrency: 4, work: async () => void seen.push(0) });
    expect(seen).toEqual([7, 8]);
  });

  it('rejects with the first failure, and the other workers still finish the items', async () => {
    const seen: number[] = [];
    const failing = runPool({
      items: [1, 2, 3, 4],
      concurrency: 2,
      work: async (item) => {
        seen.push(item);
        if (item === 1) throw new Error('boom 1');
      },
    });
    await expect(failing).rejects.toThrow('boom 1');
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.sort()).toEqual([1, 2, 3, 4]);
  });
});
