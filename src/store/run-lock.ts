import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { open, readFile, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { RunLockedError } from '../spec/errors.js';
import { processIsAlive } from '../spec/process-is-alive.js';

/** The lock file inside a run directory. */
export const RUN_LOCK_FILE = 'run.lock';

/** Who holds a run directory's lock: written into the lock file. */
export const runLockHolderSchema = z.object({
  pid: z.number().int(),
  host: z.string(),
  command: z.string(),
  startedAt: z.string(),
  /** Random per acquisition, so a process never removes a lock that is not its own. */
  token: z.string(),
});
export type RunLockHolder = z.infer<typeof runLockHolderSchema>;

/** A held lock; release it when the writing ends (normal exit, error or interrupt). */
export type RunLock = {
  readonly path: string;
  readonly holder: RunLockHolder;
  /** Removes the lock file if it is still this lock. Safe to call twice. */
  release(): Promise<void>;
  /** The same, synchronously (for a process `exit` handler). */
  releaseSync(): void;
};

/** Options of `acquireRunLock`; the process facts default to the current process. */
export type AcquireRunLockOptions = {
  directory: string;
  /** What is writing, e.g. `confidant resume`. */
  command: string;
  pid?: number;
  host?: string;
  now?: () => Date;
  /** Whether a process of this host runs (default: `process.kill(pid, 0)`). */
  isAlive?: (pid: number) => boolean;
};

/** The lock and, when a dead process's lock was taken over, whose it was. */
export type AcquiredRunLock = { lock: RunLock; tookOverFrom?: RunLockHolder };

export { processIsAlive };

function parseHolder(text: string): RunLockHolder | null {
  try {
    const parsed = runLockHolderSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The holder of a run directory's lock, or `null` when it is not locked (or the file is unreadable). */
export async function readRunLock(directory: string): Promise<RunLockHolder | null> {
  const text = await readFile(join(directory, RUN_LOCK_FILE), 'utf8').catch(() => null);
  return text === null ? null : parseHolder(text);
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && Reflect.get(error, 'code') === code;
}

/** Creates the lock file only if none exists (`wx`: atomic on local file systems). */
async function tryCreate(path: string, holder: RunLockHolder): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'wx');
  } catch (error) {
    if (isCode(error, 'EEXIST')) return false;
    throw error;
  }
  try {
    await handle.writeFile(`${JSON.stringify(holder, null, 2)}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

function describeHolder(holder: RunLockHolder): string {
  return `PID ${holder.pid} on host ${holder.host} (${holder.command}, since ${holder.startedAt})`;
}

/**
 * Removes the stale lock `seen` so a new one can be created. The file is renamed away first and
 * checked: if another process replaced it meanwhile (its token differs), it is put back and the
 * takeover is abandoned, so two processes taking over one stale lock cannot both succeed.
 */
async function removeStale({ path, seen }: { path: string; seen: RunLockHolder }): Promise<void> {
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return;
    throw error;
  }
  const moved = parseHolder(await readFile(aside, 'utf8').catch(() => ''));
  if (moved !== null && moved.token !== seen.token) {
    // Not the stale lock we judged: restore it unless a newer one already took its place.
    await tryCreate(path, moved);
    await rm(aside, { force: true });
    return;
  }
  await rm(aside, { force: true });
}

/**
 * Locks a run directory for one writer. The lock is a file (`run.lock`) created atomically and
 * holding the PID, host, command and start time. When it already exists:
 * - a holder on this host whose process is gone (after `kill -9`) is taken over, and returned
 *   as `tookOverFrom` so the caller can say so;
 * - a live holder, or one on another host (whose process this host cannot see), is a
 *   `RunLockedError` (exit 2) naming the holder and what to do.
 * An unreadable lock file is treated as another writer's, and the message says how to remove it.
 */
export async function acquireRunLock(options: AcquireRunLockOptions): Promise<AcquiredRunLock> {
  const path = join(options.directory, RUN_LOCK_FILE);
  const holder: RunLockHolder = {
    pid: options.pid ?? process.pid,
    host: options.host ?? hostname(),
    command: options.command,
    startedAt: (options.now?.() ?? new Date()).toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  const isAlive = options.isAlive ?? processIsAlive;
  let tookOverFrom: RunLockHolder | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await tryCreate(path, holder)) {
      return { lock: heldLock({ path, holder }), ...(tookOverFrom ? { tookOverFrom } : {}) };
    }
    const text = await readFile(path, 'utf8').catch((error: unknown) => (isCode(error, 'ENOENT') ? null : ''));
    if (text === null) continue; // released meanwhile: try again
    const existing = parseHolder(text);
    if (existing === null) {
      const info = await stat(path).catch(() => null);
      throw new RunLockedError(
        `run directory ${options.directory} is locked, but its lock file ${path} is unreadable${info ? ` (written ${info.mtime.toISOString()})` : ''}; if no confidant process is writing this run, delete ${path} and run the command again`,
      );
    }
    if (existing.host !== holder.host) {
      throw new RunLockedError(
        `run directory ${options.directory} is being written by ${describeHolder(existing)}; this host cannot tell whether that process still runs. Wait for it to finish; if host ${existing.host} is down or the process is gone, delete ${path} and run the command again`,
      );
    }
    if (existing.pid === holder.pid || isAlive(existing.pid)) {
      throw new RunLockedError(
        `run directory ${options.directory} is being written by ${describeHolder(existing)}; wait for it to finish, or stop it (Ctrl-C, or kill ${existing.pid}) and run the command again`,
      );
    }
    await removeStale({ path, seen: existing });
    tookOverFrom = existing;
  }
  throw new RunLockedError(
    `could not lock run directory ${options.directory}: other processes keep taking its lock (${path}); run one writer at a time`,
  );
}

function heldLock({ path, holder }: { path: string; holder: RunLockHolder }): RunLock {
  let released = false;
  const ours = (text: string | null) => text !== null && parseHolder(text)?.token === holder.token;
  return {
    path,
    holder,
    async release() {
      if (released) return;
      released = true;
      if (ours(await readFile(path, 'utf8').catch(() => null))) await rm(path, { force: true });
    },
    releaseSync() {
      if (released) return;
      released = true;
      let text: string | null = null;
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        return;
      }
      if (ours(text)) {
        try {
          unlinkSync(path);
        } catch {}
      }
    },
  };
}
