import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';

/** Hex sha256 of a byte string or text (text is hashed as UTF-8). */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Hex sha256 of a file's bytes, streamed so large files are not held in memory. */
export async function sha256File(filePath: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(filePath)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** One file of a dataset with its content hash; `path` is relative to the dataset directory. */
export type FileHash = { path: string; sha256: string };

/**
 * The content hash of a set of files: sha256 over the lines `<sha256>  <path>\n`, sorted by
 * path, so the result depends on names and contents but not on the order they were listed in.
 */
export function datasetContentHash(files: readonly FileHash[]): string {
  const lines = [...files]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((file) => `${file.sha256}  ${file.path}\n`);
  return sha256Hex(lines.join(''));
}

/**
 * Hashes `paths` (relative to `root`) and returns each file's hash plus the combined content
 * hash (see {@link datasetContentHash}). The files are listed in the order given.
 */
export async function hashDatasetFiles({
  root,
  paths,
}: {
  root: string;
  paths: readonly string[];
}): Promise<{ files: FileHash[]; hash: string }> {
  const files: FileHash[] = [];
  for (const path of paths) files.push({ path, sha256: await sha256File(join(root, path)) });
  return { files, hash: datasetContentHash(files) };
}
