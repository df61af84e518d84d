/**
 * Runs `work` on every item with at most `concurrency` calls in flight, starting the items in
 * order. Only `concurrency` promises exist at any time (one per worker, each taking the next item
 * when its call settles), so a run of 100,000 samples does not hold 100,000 queued promises and
 * closures the way mapping every item through a limiter up front does. Resolves once every call
 * has settled; the first rejection rejects it (like `Promise.all`) while the other workers go on
 * to the end of the items.
 */
export async function runPool<T>({
  items,
  concurrency,
  work,
}: {
  items: readonly T[];
  concurrency: number;
  work: (item: T) => Promise<void>;
}): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
