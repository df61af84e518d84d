import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ConfidantError } from './errors.js';

/** The `code` of a Node file-system error, if it has one. */
export function fsErrorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** A folder the file system will not create (e.g. under `/proc`): a user error, with code `ENOENT`. */
export class CannotCreateFolderError extends ConfidantError {
  readonly code = 'ENOENT';
  readonly path: string;
  constructor(path: string, cause: unknown) {
    super(`cannot create the folder ${path}: the file system there takes no new folders; choose another path`, {
      cause,
      userError: true,
    });
    this.name = 'CannotCreateFolderError';
    this.path = path;
  }
}

function notADirectory({ target, at }: { target: string; at: string }): Error {
  return Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${target}'`), { code: 'ENOTDIR', path: at });
}

function settle(path: string, error: unknown, isDirectory: (path: string) => boolean): void {
  const code = fsErrorCode(error);
  if (code === 'EEXIST' && isDirectory(path)) return;
  // ENOENT although the parent exists: a pseudo file system such as /proc (where Node's own
  // recursive mkdir retries forever).
  if (code === 'ENOENT') throw new CannotCreateFolderError(path, error);
  throw error;
}

/**
 * `mkdir -p` that always ends: creates the missing folders of `path` one at a time, outermost
 * first. Node's `mkdir(…, { recursive: true })` never returns for a path such as `/proc/x`; here
 * that is a `CannotCreateFolderError` (a user error, code `ENOENT`). Other failures keep Node's codes (`ENOTDIR`/`EEXIST` when a
 * file is in the way, `EACCES`, `EROFS`, …) so callers can name the flag at fault.
 */
export async function makeDirectory(path: string): Promise<void> {
  const target = resolve(path);
  const chain: string[] = [];
  let current = target;
  let found = await stat(current).catch(() => undefined);
  while (found === undefined && dirname(current) !== current) {
    chain.unshift(current);
    current = dirname(current);
    found = await stat(current).catch(() => undefined);
  }
  if (found !== undefined && !found.isDirectory()) throw notADirectory({ target, at: current });
  for (const folder of chain) {
    try {
      await mkdir(folder);
    } catch (error) {
      const kind = await stat(folder).catch(() => undefined);
      settle(folder, error, () => kind?.isDirectory() === true);
    }
  }
}

/** The synchronous {@link makeDirectory}. */
export function makeDirectorySync(path: string): void {
  const target = resolve(path);
  const isDirectory = (candidate: string) => statSync(candidate, { throwIfNoEntry: false })?.isDirectory() === true;
  const chain: string[] = [];
  let current = target;
  let found = statSync(current, { throwIfNoEntry: false });
  while (found === undefined && dirname(current) !== current) {
    chain.unshift(current);
    current = dirname(current);
    found = statSync(current, { throwIfNoEntry: false });
  }
  if (found !== undefined && !found.isDirectory()) throw notADirectory({ target, at: current });
  for (const folder of chain) {
    try {
      mkdirSync(folder);
    } catch (error) {
      settle(folder, error, isDirectory);
    }
  }
}
