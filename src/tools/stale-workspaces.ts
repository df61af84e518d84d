import { rmSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { processIsAlive } from '../spec/process-is-alive.js';

/** Temporary workspace directories are named `confidant-workspace-<pid>-<random>`. */
export const WORKSPACE_DIR_PREFIX = 'confidant-workspace-';

const OWNED = /^confidant-workspace-(\d+)-/;

/** The `mkdtemp` prefix of a workspace directory owned by process `pid` (default: this one). */
export function workspaceDirPrefix(pid: number = process.pid): string {
  return `${WORKSPACE_DIR_PREFIX}${pid}-`;
}

/**
 * Removes the workspace directories in `tempRoot` left by processes that are gone (a run killed
 * with `kill -9` cannot remove its own). Only directories whose name carries a pid are touched,
 * and only when that process no longer runs; this process's own are kept. Returns the removed
 * paths. Failures (a directory another user owns) are skipped: cleaning is best effort.
 */
export async function removeStaleWorkspaces({
  tempRoot,
  isAlive = processIsAlive,
}: {
  tempRoot: string;
  isAlive?: (pid: number) => boolean;
}): Promise<string[]> {
  const names = await readdir(tempRoot).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const pid = Number(OWNED.exec(name)?.[1] ?? Number.NaN);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) continue;
    const path = join(tempRoot, name);
    try {
      await rm(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // Not ours to remove after all (permissions): leave it.
    }
  }
  return removed;
}

const open = new Set<string>();
let exitHookInstalled = false;

/**
 * Keeps `directory` on the list of this process's workspace directories, removed synchronously
 * when the process exits (also through `process.exit`, and after SIGINT/SIGTERM once the CLI exits)
 * if nothing closed them first. Returns the function that takes it off the list.
 */
export function removeOnExit(directory: string): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const path of open) rmSync(path, { recursive: true, force: true });
    });
  }
  open.add(directory);
  return () => {
    open.delete(directory);
  };
}
