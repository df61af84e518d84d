import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ChecksumMismatchError, ConfidantError } from '../spec/errors.js';
import { sha256File, sha256Hex } from './checksum.js';
import { type CatalogFile, findCatalogEntry } from './dataset-catalog.js';

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
  return baseUrl === undefined ? file.url : `${baseUrl.replace(/\/+$/, '')}/${file.upstreamPath}`;
}

async function download({ url, fetchFile }: { url: string; fetchFile: FetchLike }): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetchFile(url);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ConfidantError(`could not download ${url}: ${reason} (check the network connection and retry)`, {
      cause,
      userError: true,
    });
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
}: {
  name: string;
  dataDir: string;
  /** Replaces the upstream raw-file base URL (tests serve the files from a loopback server). */
  baseUrl?: string;
  fetch?: FetchLike;
  onProgress?: (progress: PullProgress) => void;
}): Promise<PullResult> {
  const entry = findCatalogEntry(name);
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
    const bytes = await download({ url, fetchFile });
    const staged = join(partialDir, file.path);
    await mkdir(dirname(staged), { recursive: true });
    await writeFile(staged, bytes);
    const actual = sha256Hex(bytes);
    if (actual !== file.sha256) {
      throw new ChecksumMismatchError(
        `checksum mismatch for ${entry.name}/${file.path} downloaded from ${url}: expected sha256 ${file.sha256}, ` +
          `got ${actual}. Nothing was written to ${dir}; the rejected download is in ${staged}. ` +
          'Retry later, or report it if the upstream file changed.',
      );
    }
    await mkdir(dirname(target), { recursive: true });
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
  status: 'ok' | 'missing' | 'mismatch';
  expected: string;
  /** The sha256 found on disk; absent when the file is missing. */
  actual?: string;
};

/** Checks every catalogued file of dataset `name` under `<dataDir>/<name>/` against its sha256. */
export async function verifyDataset({
  name,
  dataDir,
}: {
  name: string;
  dataDir: string;
}): Promise<{ name: string; dir: string; ok: boolean; files: VerifiedFile[] }> {
  const entry = findCatalogEntry(name);
  const dir = join(dataDir, entry.name);
  const files: VerifiedFile[] = [];
  for (const file of entry.files) {
    const target = join(dir, file.path);
    if (!(await fileExists(target))) {
      files.push({ path: file.path, status: 'missing', expected: file.sha256 });
      continue;
    }
    const actual = await sha256File(target);
    files.push({ path: file.path, status: actual === file.sha256 ? 'ok' : 'mismatch', expected: file.sha256, actual });
  }
  return { name: entry.name, dir, ok: files.every((file) => file.status === 'ok'), files };
}
