import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PlanValidationError } from '../spec/errors.js';
import { makeDirectory } from '../spec/make-directory.js';

/** How many suffixed names to try before giving up (two runs per second of one plan is already rare). */
const MAX_SUFFIX = 1000;

/**
 * Creates `<outDir>/<runId>` and never reuses an existing directory: if the name is taken,
 * `-2`, `-3`, … are appended, and the returned `runId` is the name actually created.
 * Creation is atomic (a non-recursive `mkdir`), so two concurrent runs never share a directory.
 */
export async function createRunDirectory({
  outDir,
  runId,
}: {
  outDir: string;
  runId: string;
}): Promise<{ runId: string; directory: string }> {
  try {
    await makeDirectory(outDir);
  } catch (error) {
    const code = typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw new PlanValidationError(
        `cannot create run directories in ${outDir}: it (or a folder above it) is a file; choose another --out`,
      );
    }
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
      throw new PlanValidationError(
        `cannot create run directories in ${outDir}: permission denied (${code}); choose another --out`,
      );
    }
    if (code === 'ENOENT') {
      throw new PlanValidationError(
        `cannot create run directories in ${outDir}: the file system there takes no new folders; choose another --out`,
      );
    }
    throw error;
  }
  for (let attempt = 1; attempt <= MAX_SUFFIX; attempt += 1) {
    const name = attempt === 1 ? runId : `${runId}-${attempt}`;
    const directory = join(outDir, name);
    try {
      await mkdir(directory);
      return { runId: name, directory };
    } catch (error) {
      const code = typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
      if (code !== 'EEXIST') throw error;
    }
  }
  throw new Error(`could not create a run directory for ${runId} in ${outDir}: ${MAX_SUFFIX} names are taken`);
}
