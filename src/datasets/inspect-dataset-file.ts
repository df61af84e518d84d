import { accessSync, constants, lstatSync, statSync } from 'node:fs';

/** Why a dataset file cannot be read as data. */
export type DatasetFileProblemKind =
  | 'missing'
  | 'dangling-symlink'
  | 'directory'
  | 'not-a-file'
  | 'empty'
  | 'unreadable';

/** The state of one expected dataset file on disk. */
export type DatasetFileState =
  | { ok: true; bytes: number }
  | { ok: false; kind: DatasetFileProblemKind; detail: string };

const DETAIL: Readonly<Record<DatasetFileProblemKind, string>> = {
  missing: 'is missing',
  'dangling-symlink': 'is a symlink to nothing',
  directory: 'is a directory, not a file',
  'not-a-file': 'is not a regular file',
  empty: 'is empty',
  unreadable: 'cannot be read (permissions)',
};

const problem = (kind: DatasetFileProblemKind): DatasetFileState => ({ ok: false, kind, detail: DETAIL[kind] });

/**
 * Checks that `path` is a non-empty regular file (following symlinks) that this process may read.
 * Never throws: a partial copy of a dataset (a missing file, a folder or a dangling symlink in a
 * file's place, a zero-byte file) comes back as a problem with a short phrase for messages
 * ("tier_3.txt is empty"). No upstream file of any catalogued dataset is empty.
 */
export function inspectDatasetFile(path: string): DatasetFileState {
  let size: number;
  try {
    const stats = statSync(path);
    if (stats.isDirectory()) return problem('directory');
    if (!stats.isFile()) return problem('not-a-file');
    size = stats.size;
  } catch {
    try {
      lstatSync(path);
      return problem('dangling-symlink');
    } catch {
      return problem('missing');
    }
  }
  try {
    accessSync(path, constants.R_OK);
  } catch {
    return problem('unreadable');
  }
  return size === 0 ? problem('empty') : { ok: true, bytes: size };
}
