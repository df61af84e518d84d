import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { hashDatasetFiles } from '../datasets/checksum.js';
import { requireDatasetFiles } from '../datasets/data-dir.js';
import { inspectDatasetFile } from '../datasets/inspect-dataset-file.js';
import { DatasetNotFoundError } from '../spec/errors.js';

/**
 * The dataset of a run as its header records it. `files` are relative to `<dataDir>/<name>/`, or
 * to `root` when the suite read data from elsewhere (a `--scenarios` folder, a `--community`
 * outside the data dir); `hash` is the content hash of those files (`built-in` when the suite
 * reads none); `warnings` are the suite's load warnings (data that loaded but cannot be judged as
 * the user probably meant), also printed before the run.
 */
export type RunDataset = {
  name: string;
  files: Array<{ path: string; sha256: string }>;
  hash: string;
  /** The resolved folder the files are relative to, when it is not `<dataDir>/<name>/`. */
  root?: string;
  warnings?: string[];
};

/**
 * Hashes the files a suite reads. Files under `<dataDir>/<name>/` are checked as a dataset copy
 * (a missing or empty file is a user error naming every bad file) and recorded relative to it, as
 * before; when any file lies outside that folder, every file is recorded relative to the deepest
 * folder holding them all, which the dataset's `root` names, so the content hash does not depend
 * on where the folder lives. No files: hash `built-in`.
 */
export async function hashRunDataset({
  dataDir,
  name,
  files,
}: {
  dataDir: string;
  name: string;
  files: readonly string[];
}): Promise<RunDataset> {
  if (files.length === 0) return { name, files: [], hash: 'built-in' };
  const folder = join(dataDir, name);
  if (!readsOutsideDataDir({ dataDir, name, files })) {
    const paths = files.map((file) => (file.startsWith(folder) ? file.slice(folder.length + 1) : file));
    const root = requireDatasetFiles({ dataDir, name, files: paths });
    return { name, ...(await hashDatasetFiles({ root, paths })) };
  }
  const absolute = files.map((file) => (isAbsolute(file) ? file : join(folder, file)));
  const problems: string[] = [];
  for (const file of absolute) {
    const state = inspectDatasetFile(file);
    if (!state.ok) problems.push(`${file} ${state.detail}`);
  }
  if (problems.length > 0) {
    throw new DatasetNotFoundError(`the data files of this run cannot be read: ${problems.join('; ')}`);
  }
  const root = commonFolder(absolute);
  const paths = absolute.map((file) => relative(root, file).split(sep).join('/'));
  return { name, root, ...(await hashDatasetFiles({ root, paths })) };
}

/**
 * Whether some of `files` lie outside `<dataDir>/<name>/` (relative paths are inside). The runner
 * hashes such files after the suite loaded them, so the suite's own error about a bad folder
 * comes first.
 */
export function readsOutsideDataDir({
  dataDir,
  name,
  files,
}: {
  dataDir: string;
  name: string;
  files: readonly string[];
}): boolean {
  const folder = join(dataDir, name);
  return files.some((file) => isAbsolute(file) && !file.startsWith(folder + sep));
}

/** The deepest folder that holds every one of `files` (absolute paths). */
function commonFolder(files: readonly string[]): string {
  let root = dirname(files[0] ?? sep);
  while (!files.every((file) => file.startsWith(root.endsWith(sep) ? root : root + sep))) {
    const parent = dirname(root);
    if (parent === root) break;
    root = parent;
  }
  return root;
}
