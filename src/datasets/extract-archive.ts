import { extract } from 'tar';
import { DatasetFormatError } from '../spec/errors.js';
import { makeDirectory } from '../spec/make-directory.js';

const ARCHIVE = /\.(tar\.gz|tgz|tar)$/i;

/** Whether `path` names an archive `--from` can unpack (`.tar.gz`, `.tgz`, `.tar`). */
export function isArchivePath(path: string): boolean {
  return ARCHIVE.test(path);
}

/**
 * Unpacks a tar archive (gzip-compressed or not, detected from its bytes) into `into`. Node has no
 * tar reader built in, so this uses `tar` (node-tar, the implementation npm itself uses), which
 * refuses absolute paths and `..` entries. Only regular files and folders are unpacked: links
 * and devices in an archive are skipped, so nothing can point outside `into`. A damaged or
 * non-tar file is a DatasetFormatError naming the archive.
 */
export async function extractArchive({ archive, into }: { archive: string; into: string }): Promise<void> {
  await makeDirectory(into);
  try {
    await extract({
      file: archive,
      cwd: into,
      strict: true,
      preservePaths: false,
      // No owners or modes from the archive: files are the user's, readable and writable.
      preserveOwner: false,
      noChmod: true,
      filter: (_path, entry) =>
        !('type' in entry) || entry.type === 'File' || entry.type === 'OldFile' || entry.type === 'Directory',
    });
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new DatasetFormatError(`${archive} could not be unpacked as a tar archive: ${reason}`, { cause });
  }
}
