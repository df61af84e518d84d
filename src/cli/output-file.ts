import { statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PlanValidationError } from '../spec/errors.js';
import { makeDirectorySync } from '../spec/make-directory.js';

function codeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Writes a command's output file, creating missing parent folders as `--out` does everywhere
 * (run, merge, demo, export). A path that is a directory, or a parent that is a file or not
 * writable, is a user error naming the flag and the path.
 */
export function writeOutputFile({ path, text, flag }: { path: string; text: string; flag: string }): void {
  try {
    if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
      throw new PlanValidationError(`${flag} ${path} is a directory; give a file path, e.g. ${path}/report.md`);
    }
    makeDirectorySync(dirname(path));
    writeFileSync(path, text);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOTDIR' || code === 'EEXIST') {
      throw new PlanValidationError(`cannot write ${flag} ${path}: a part of the folder path is a file`, {
        cause: error,
      });
    }
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
      throw new PlanValidationError(`cannot write ${flag} ${path}: permission denied (${code})`, { cause: error });
    }
    if (code === 'ENOENT') {
      throw new PlanValidationError(`cannot write ${flag} ${path}: its folder cannot be created there`, {
        cause: error,
      });
    }
    throw error;
  }
}
