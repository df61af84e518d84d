import { shellWord } from '../spec/shell-word.js';
import type { DirectoryRunStore, RunLock } from '../store/index.js';
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
    io.stderr(
      `note: took over the lock of ${store.location} from PID ${tookOverFrom.pid} (${tookOverFrom.command}, since ${tookOverFrom.startedAt}), which is no longer running\n`,
    );
  }
  return lock;
}

export { shellWord };

/** The command that continues a run, as printed for the user to paste. */
export function resumeCommand(directory: string): string {
  return `confidant resume ${shellWord(directory)}`;
}
