import { rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ChecksumMismatchError, ConfidantError, DatasetNotFoundError } from '../spec/errors.js';
import { makeDirectory } from '../spec/make-directory.js';
import { sha256File, sha256Hex } from './checksum.js';
import { type CatalogFile, type DatasetCatalogEntry, findCatalogEntry } from './dataset-catalog.js';
import { inspectDatasetFile } from './inspect-dataset-file.js';

/** Progress of one file during a pull. */
export type PullProgress = {
  path: string;
  index: number;
  total: number;
  status: 'downloading' | 'downloaded' | 'present';
};

/** What happened to one catalogued file: fetched now, or already there with the right hash. */
export type PulledFile = { path: string; status: 'downloaded' | 'present'; sha256: string; bytes: number };

/** The result of a pull: the dataset directory and one entry per catalogued file. */
export type PullResult = { name: string; dir: string; files: PulledFile[] };

/** The fetch function a pull uses; the global `fetch` by default, injectable for tests. */
export type FetchLike = (url: string) => Promise<Response>;

async function fileExists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function downloadUrl({ file, baseUrl }: { file: CatalogFile; baseUrl: string | undefined }): string {
  if (baseUrl !== undefined) return `${baseUrl.replace(/\/+$/, '')}/${file.upstreamPath}`;
  if (file.url === undefined) throw new RangeError(`catalogue file ${file.path} has no download URL`);
  return file.url;
}

async function download({
  url,
  name,
  fetchFile,
}: {
  url: string;
  name: string;
  fetchFile: FetchLike;
}): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetchFile(url);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ConfidantError(
      `could not download ${url}: ${reason}. Check the network connection and retry, or install from a local copy ` +
        `with \`confidant data pull ${name} --from <dir|file.tar.gz>\` (see docs/data.md)`,
      { cause, userError: true },
    );
  }
  if (!response.ok) {
    throw new ConfidantError(`could not download ${url}: HTTP ${response.status}`, { userError: true });
  }
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Downloads every catalogued file of dataset `name` into `<dataDir>/<name>/` and checks its
 * sha256. Files already present with the right hash are kept (`present`). Each download is first
 * written under `<dataDir>/<name>.partial/` and renamed into place only once its checksum
 * matches, so the dataset directory never holds an unverified or half-written file. A mismatch
 * throws a ChecksumMismatchError naming the file and both hashes; the rejected bytes stay in the
 * `.partial` directory for inspection. After a complete pull the `.partial` directory is removed.
 */
export async function pullDataset({
  name,
  dataDir,
  baseUrl,
  fetch: fetchFile = (url) => fetch(url),
  onProgress,
  entry = findCatalogEntry(name),
}: {
  name: string;
  dataDir: string;
  /** Replaces the upstream raw-file base URL (tests serve the files from a loopback server). */
  baseUrl?: string;
  fetch?: FetchLike;
  onProgress?: (progress: PullProgress) => void;
  /** The catalogue entry to pull (default: the built-in one named `name`). */
  entry?: DatasetCatalogEntry;
}): Promise<PullResult> {
  if (!entry.downloadable) {
    throw new DatasetNotFoundError(`dataset '${entry.name}' cannot be downloaded: ${entry.howToObtain ?? 'no source'}`);
  }
  const dir = join(dataDir, entry.name);
  const partialDir = join(dataDir, `${entry.name}.partial`);
  const total = entry.files.length;
  const files: PulledFile[] = [];
  for (const [index, file] of entry.files.entries()) {
    const target = join(dir, file.path);
    if ((await fileExists(target)) && (await sha256File(target)) === file.sha256) {
      files.push({ path: file.path, status: 'present', sha256: file.sha256, bytes: (await stat(target)).size });
      onProgress?.({ path: file.path, index, total, status: 'present' });
      continue;
    }
    onProgress?.({ path: file.path, index, total, status: 'downloading' });
    const url = downloadUrl({ file, baseUrl });
    const bytes = await download({ url, name: entry.name, fetchFile });
    const staged = join(partialDir, file.path);
    await makeDirectory(dirname(staged));
    await writeFile(staged, bytes);
    const actual = sha256Hex(bytes);
    if (actual !== file.sha256) {
      throw new ChecksumMismatchError(
        `checksum mismatch for ${entry.name}/${file.path} downloaded from ${url}: expected sha256 ${file.sha256}, ` +
          `got ${actual}. Nothing was written to ${dir}; the rejected download is in ${staged}. ` +
          'Retry later, or report it if the upstream file changed.',
      );
    }
    await makeDirectory(dirname(target));
    await rename(staged, target);
    files.push({ path: file.path, status: 'downloaded', sha256: actual, bytes: bytes.byteLength });
    onProgress?.({ path: file.path, index, total, status: 'downloaded' });
  }
  await rm(partialDir, { recursive: true, force: true });
  return { name: entry.name, dir, files };
}

/** The state of one catalogued file on disk. */
export type VerifiedFile = {
  path: string;
  /** `missing`: absent; `unusable`: a folder, a dangling symlink or unreadable in its place; `mismatch`: other bytes. */
  status: 'ok' | 'missing' | 'unusable' | 'mismatch';
  /** What is wrong, as a phrase after the path ("is a directory, not a file"); `ok` when nothing is. */
  detail: string;
  expected: string;
  /** The sha256 found on disk; absent when the file could not be read. */
  actual?: string;
};

/** The catalogued file `file` at `path`, checked against its sha256 (every problem, never a throw). */
export async function checkCatalogFile({ file, path }: { file: CatalogFile; path: string }): Promise<VerifiedFile> {
  const state = inspectDatasetFile(path);
  const base = { path: file.path, expected: file.sha256 };
  if (!state.ok && state.kind !== 'empty') {
    return { ...base, status: state.kind === 'missing' ? 'missing' : 'unusable', detail: state.detail };
  }
  const actual = await sha256File(path);
  if (actual === file.sha256) return { ...base, status: 'ok', detail: 'ok', actual };
  const what = state.ok ? `differs from the catalogue` : state.detail;
  return { ...base, status: 'mismatch', detail: `${what} (sha256 ${actual}, expected ${file.sha256})`, actual };
}

/**
 * Checks every catalogued file of dataset `name` under `<dataDir>/<name>/` against its sha256 and
 * reports each one: all problems at once, not just the first.
 */
export async function verifyDataset({
  name,
  dataDir,
  entry = findCatalogEntry(name),
}: {
  name: string;
  dataDir: string;
  /** The catalogue entry to check against (default: the built-in one named `name`). */
  entry?: DatasetCatalogEntry;
}): Promise<{ name: string; dir: string; ok: boolean; files: VerifiedFile[] }> {
  const dir = join(dataDir, entry.name);
  const files: VerifiedFile[] = [];
  for (const file of entry.files) files.push(await checkCatalogFile({ file, path: join(dir, file.path) }));
  return { name: entry.name, dir, ok: files.every((file) => file.status === 'ok'), files };
}
