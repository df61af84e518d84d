import { posix } from 'node:path';
import { ToolError } from './tool-error.js';

/** The result of {@link resolveAllowedPath}: a normalised absolute path inside one allowed directory. */
export type AllowedPath = {
  /** The normalised absolute path (no `.`, `..`, `//` or trailing `/`). */
  absolute: string;
  /** Index of the allowed directory it lies in. */
  directoryIndex: number;
  /** The part below that directory, `/`-separated; `''` for the directory itself. */
  relative: string;
};

const WINDOWS_DRIVE = /^[A-Za-z]:(?:[\\/]|$)/;
const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/;

function isInside(absolute: string, directory: string): boolean {
  return absolute === directory || absolute.startsWith(directory === '/' ? '/' : `${directory}/`);
}

function outside(shown: string, directories: readonly string[]): ToolError {
  return new ToolError(`Access denied - path outside allowed directories: ${shown} not in ${directories.join(', ')}`);
}

/**
 * Turns a path a model typed into an absolute path inside one of `directories` (absolute,
 * normalised POSIX paths), the way the official filesystem server does: an absolute path is
 * normalised (`//`, `.` and `..` collapse, so `..` cannot climb out unnoticed); a relative path
 * is tried against each directory in order and the first that keeps it inside wins. Anything
 * that ends up outside every directory is refused with the server's "Access denied" message.
 *
 * Stricter than the server, because these are the tricks a model could use to confuse a path
 * check: NUL characters, backslashes (the server would take them literally as part of a name),
 * percent-encoded octets (`%2e%2e`), Windows drive letters and `~` home paths are all refused.
 * The result says only which directory a path is in; whether it exists is the caller's concern.
 */
export function resolveAllowedPath(options: { requested: string; directories: readonly string[] }): AllowedPath {
  const { requested, directories } = options;
  if (directories.length === 0) throw new ToolError('Access denied - no allowed directories are configured');
  if (requested.includes('\0')) throw new ToolError('Access denied - the path contains a NUL character');
  if (WINDOWS_DRIVE.test(requested)) {
    throw new ToolError(`Access denied - Windows-style path received on a POSIX host: ${requested}`);
  }
  if (requested.includes('\\')) {
    throw new ToolError(`Access denied - backslashes are not path separators here; use '/': ${requested}`);
  }
  if (PERCENT_ESCAPE.test(requested)) {
    throw new ToolError(`Access denied - percent-encoded characters are not allowed in paths: ${requested}`);
  }
  if (requested === '~' || requested.startsWith('~/')) throw outside(requested, directories);
  let absolute: string;
  if (requested.startsWith('/')) {
    absolute = posix.resolve(requested);
  } else {
    const candidates = directories.map((directory) => posix.resolve(directory, requested));
    absolute = candidates.find((candidate) => directories.some((d) => isInside(candidate, d))) ?? candidates[0]!;
  }
  let directoryIndex = -1;
  directories.forEach((directory, index) => {
    const current = directories[directoryIndex];
    if (isInside(absolute, directory) && (current === undefined || directory.length > current.length)) {
      directoryIndex = index;
    }
  });
  const directory = directories[directoryIndex];
  if (directory === undefined) throw outside(absolute, directories);
  const relative = absolute === directory ? '' : absolute.slice(directory === '/' ? 1 : directory.length + 1);
  return { absolute, directoryIndex, relative };
}
