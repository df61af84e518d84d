import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';

/**
 * Writes `text` to `path` so that readers see either the old file or the whole new one:
 * the text goes to a temporary sibling first, which is then renamed over the target
 * (rename is atomic within one file system). The temporary file is removed on failure.
 */
export async function writeFileAtomic({ path, text }: { path: string; text: string }): Promise<void> {
  const temporary = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(temporary, text, { encoding: 'utf8', flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
