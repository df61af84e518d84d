import { shellWord } from '../spec/shell-word.js';
import type { DirectoryRunStore } from '../store/directory-run-store.js';
import type { RunLock, RunLockHolder } from '../store/run-lock.js';
import type { CliIo } from './cli-io.js';

/**
 * Locks a run directory for this process (a second writer gets exit 2 naming this one). A dead
 * process's lock on this host is taken over with a one-line notice.
 */
export async function lockRunDirectory({
  io,
  store,
  command,
}: {
  io: CliIo;
  store: DirectoryRunStore;
  command: string;
}): Promise<RunLock> {
  const { lock, tookOverFrom } = await store.acquireLock({ command });
  if (tookOverFrom) {
    io.stderr(lockTakeoverNote({ what: store.location, holder: tookOverFrom }));
  }
  return lock;
}

/** The stderr line saying a stale lock of `what` (a directory, or a description of one) was taken over. */
export function lockTakeoverNote({ what, holder }: { what: string; holder: RunLockHolder }): string {
  return `note: took over the lock of ${what} from PID ${holder.pid} (${holder.command}, since ${holder.startedAt}), which is no longer running\n`;
}

export { shellWord };

/** The command that continues a run, as printed for the user to paste. */
export function resumeCommand(directory: string): string {
  return `confidant resume ${shellWord(directory)}`;
}
