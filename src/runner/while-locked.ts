import type { RunLock } from '../store/run-lock.js';

/**
 * Runs `work` while `lock` is held and releases it afterwards: on return, on an error, after
 * Ctrl-C/SIGTERM (which end the work cleanly), and synchronously when the process exits without
 * finishing it (a second Ctrl-C). Only `kill -9` leaves the lock behind; the next writer on this
 * host takes it over.
 */
export async function whileLocked<T>({ lock, work }: { lock: RunLock; work: () => Promise<T> }): Promise<T> {
  const onExit = () => lock.releaseSync();
  process.once('exit', onExit);
  try {
    return await work();
  } finally {
    process.off('exit', onExit);
    await lock.release();
  }
}
