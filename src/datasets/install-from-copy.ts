import { readdirSync } from 'node:fs';
import { copyFile, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChecksumMismatchError, ConfidantError, DatasetNotFoundError } from '../spec/errors.js';
import { makeDirectory } from '../spec/make-directory.js';
import { type CatalogFile, type DatasetCatalogEntry, findCatalogEntry } from './dataset-catalog.js';
import { extractArchive, isArchivePath } from './extract-archive.js';
import { inspectDatasetFile } from './inspect-dataset-file.js';
import { checkCatalogFile, type VerifiedFile } from './pull-dataset.js';

/** What happened to one catalogued file: copied from the local copy now, or already installed with the right hash. */
export type InstalledFile = { path: string; status: 'copied' | 'present'; sha256: string; from?: string };

/** The result of an install from a local copy. */
export type InstallFromCopyResult = { name: string; dir: string; source: string; files: InstalledFile[] };

/** Progress of one file during an install. */
export type InstallProgress = { path: string; index: number; total: number; status: 'copied' | 'present' };

/** `file:///x` → `/x`; other strings are paths. An http(s) URL is refused (that is `--mirror`). */
function sourcePath(from: string): string {
  if (/^https?:\/\//i.test(from)) {
    throw new ConfidantError(`--from takes a local folder or archive, not ${from}: use --mirror <url> for a server`, {
      userError: true,
    });
  }
  if (/^file:/i.test(from)) {
    try {
      return fileURLToPath(from);
    } catch (cause) {
      throw new ConfidantError(`--from ${from} is not a valid file:// URL (write file:///absolute/path)`, {
        cause,
        userError: true,
      });
    }
  }
  return resolve(from);
}

const isDirectory = (path: string) => {
  const state = inspectDatasetFile(path);
  return !state.ok && state.kind === 'directory';
};

/**
 * Where in a local copy the dataset's files sit. A copy may be the dataset folder itself
 * (`tier_1.txt` at its top), a data dir holding `<name>/`, a clone of the upstream repository
 * (`benchmark/tier_1.txt`), or any of these one folder down (a GitHub archive's `confaide-main/`).
 * Each candidate root is scored by how many catalogued files it holds under either layout; the
 * best wins, so a copy missing some files still resolves and those files are reported by name.
 */
function locateRoot({ top, entry }: { top: string; entry: DatasetCatalogEntry }): string | null {
  const candidates = [top, join(top, entry.name)];
  try {
    const children = readdirSync(top).filter((child) => isDirectory(join(top, child)));
    for (const child of children) candidates.push(join(top, child), join(top, child, entry.name));
  } catch {
    // Not a readable folder: no candidates below it.
  }
  let best: { root: string; found: number } | null = null;
  for (const root of candidates) {
    const found = entry.files.filter((file) => findFile({ root, file }) !== null).length;
    if (found > 0 && (best === null || found > best.found)) best = { root, found };
  }
  return best?.root ?? null;
}

/** The file's path in the copy: the local layout first, then the upstream one; null when neither exists. */
function findFile({ root, file }: { root: string; file: CatalogFile }): string | null {
  for (const path of [join(root, file.path), join(root, file.upstreamPath)]) {
    const state = inspectDatasetFile(path);
    if (state.ok || state.kind !== 'missing') return path;
  }
  return null;
}

/** A problem file of the copy, with where it was looked for, as the user can find it. */
type CopyProblem = VerifiedFile & { where: string };

/** `at` as the user sees it: an absolute path in a folder, the member's path in an archive. */
function shownPath({ at, top, archive }: { at: string; top: string; archive: string | null }): string {
  return archive === null ? at : `archive member ${relative(top, at)}`;
}

/**
 * Installs dataset `name` into `<dataDir>/<name>/` from a local copy: a folder, a `.tar.gz` /
 * `.tgz` / `.tar` archive, or a `file://` URL to either. Every catalogued file is checked against
 * the same SHA-256 as a download. Nothing is installed unless the whole copy verifies: a missing
 * or tampered file refuses the install with a user error naming every bad file (a
 * ChecksumMismatchError when some file's bytes differ, else a DatasetNotFoundError). Files
 * already installed with the right hash are kept. Each file is copied under
 * `<dataDir>/<name>.partial/`, hashed again and renamed into place, so the dataset folder never
 * holds an unverified file; an archive is unpacked there too, and the folder is removed at the end.
 */
export async function installDatasetFromCopy({
  name,
  dataDir,
  from,
  entry = findCatalogEntry(name),
  onProgress,
}: {
  name: string;
  dataDir: string;
  from: string;
  /** The catalogue entry to install (default: the built-in one named `name`). */
  entry?: DatasetCatalogEntry;
  onProgress?: (progress: InstallProgress) => void;
}): Promise<InstallFromCopyResult> {
  const source = sourcePath(from);
  const dir = join(dataDir, entry.name);
  const partialDir = join(dataDir, `${entry.name}.partial`);
  const sourceState = inspectDatasetFile(source);
  const sourceIsDirectory = !sourceState.ok && sourceState.kind === 'directory';
  if (!sourceIsDirectory && !(sourceState.ok && isArchivePath(source))) {
    const what = sourceState.ok ? 'is not a .tar.gz, .tgz or .tar archive' : sourceState.detail;
    throw new DatasetNotFoundError(
      `--from ${source} ${what}: give the folder of a copy of '${entry.name}' (or one holding ${entry.name}/), ` +
        'or an archive of it (.tar.gz, .tgz, .tar)',
    );
  }
  try {
    let top = source;
    const archive = sourceIsDirectory ? null : source;
    if (!sourceIsDirectory) {
      top = join(partialDir, 'unpacked');
      await rm(top, { recursive: true, force: true });
      await extractArchive({ archive: source, into: top });
    }
    const root = locateRoot({ top, entry });
    if (root === null) {
      const example = entry.files[0];
      throw new DatasetNotFoundError(
        `no file of dataset '${entry.name}' found in ${source}: expected e.g. ${example?.path} ` +
          `or ${example?.upstreamPath} (see docs/data.md for the layout)`,
      );
    }
    // Check everything before installing anything: the user sees every bad file at once.
    const plan: Array<{ file: CatalogFile; status: 'present' } | { file: CatalogFile; status: 'copy'; at: string }> =
      [];
    const problems: CopyProblem[] = [];
    for (const file of entry.files) {
      const installed = await checkCatalogFile({ file, path: join(dir, file.path) });
      if (installed.status === 'ok') {
        plan.push({ file, status: 'present' });
        continue;
      }
      if (isDirectory(join(dir, file.path))) {
        // Never delete a folder of the user's to make room: say so and let them move it.
        problems.push({ ...installed, path: `${entry.name}/${file.path}`, where: join(dir, file.path) });
        continue;
      }
      const found = findFile({ root, file });
      const at = found ?? join(root, file.path);
      const copy = await checkCatalogFile({ file, path: at });
      if (copy.status === 'ok') {
        plan.push({ file, status: 'copy', at });
        continue;
      }
      const shown = (path: string) => shownPath({ at: path, top, archive });
      const where =
        found === null
          ? `looked for ${shown(join(root, file.path))} and ${shown(join(root, file.upstreamPath))}`
          : shown(at);
      problems.push({ ...copy, where });
    }
    if (problems.length > 0) {
      const tampered = problems.some((problem) => problem.status === 'mismatch');
      const message =
        `refused to install '${entry.name}' from ${source}: ${problems.length} of ${entry.files.length} files ` +
        `${tampered ? 'do not match their checksums or are missing' : 'are missing or unusable'}: ` +
        `${problems.map((problem) => `${problem.path} ${problem.detail} (${problem.where})`).join('; ')}. ` +
        `Nothing was installed into ${dir}.`;
      throw tampered ? new ChecksumMismatchError(message) : new DatasetNotFoundError(message);
    }
    const files: InstalledFile[] = [];
    for (const [index, step] of plan.entries()) {
      const { file } = step;
      if (step.status === 'present') {
        files.push({ path: file.path, status: 'present', sha256: file.sha256 });
        onProgress?.({ path: file.path, index, total: plan.length, status: 'present' });
        continue;
      }
      const staged = join(partialDir, 'staged', file.path);
      await makeDirectory(dirname(staged));
      await copyFile(step.at, staged);
      // The copy is hashed again: the source may have changed since it was checked.
      const copied = await checkCatalogFile({ file, path: staged });
      if (copied.status !== 'ok') {
        throw new ChecksumMismatchError(
          `${entry.name}/${file.path} changed while it was copied from ${step.at}: ${copied.detail}. ` +
            `Files before it are installed in ${dir}; run the command again.`,
        );
      }
      const target = join(dir, file.path);
      await makeDirectory(dirname(target));
      await rm(target, { force: true });
      await rename(staged, target);
      files.push({ path: file.path, status: 'copied', sha256: file.sha256, from: step.at });
      onProgress?.({ path: file.path, index, total: plan.length, status: 'copied' });
    }
    return { name: entry.name, dir, source, files };
  } finally {
    await rm(partialDir, { recursive: true, force: true });
  }
}
