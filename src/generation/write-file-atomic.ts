import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { makeDirectory } from '../spec/make-directory.js';

/**
 * Writes `text` to `path` so that readers see the old file or the whole new one, never a
 * partial write: the text goes to a temporary sibling first, which is then renamed over
 * `path` (a rename within one folder is atomic). Missing folders are created.
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  await makeDirectory(dirname(path));
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, text, 'utf8');
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
