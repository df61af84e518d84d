import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The one place tests find the upstream datasets (ConfAIde, PrivacyLens, PAC-Bench), which are
 * never committed. `CONFIDANT_TEST_DATA_DIR` names the folder that holds `<name>/…` for each
 * dataset; without it, `../shared/datasets` beside the repository (where CI keeps them) is used.
 * Tests that need a dataset pass {@link UpstreamDataset.testOptions} to `describe`/`it`: without the
 * data they are skipped (not failed), and the data-skip reporter ends the run with one line
 * saying how many were skipped and how to run them.
 */
export const TEST_DATA_ENV = 'CONFIDANT_TEST_DATA_DIR';

/** The repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the upstream datasets are looked for (they may be absent: see {@link upstreamDataset}). */
export const testDataDir: string = resolve(process.env[TEST_DATA_ENV] || join(repoRoot, '..', 'shared', 'datasets'));

/**
 * Our own data in the upstream formats (`test/fixtures/datasets/<name>/`): what the end-to-end tests
 * of the run spine use, so they run on any clone. Never upstream data.
 */
export const fixtureDataDir: string = join(repoRoot, 'test', 'fixtures', 'datasets');

/** The upstream datasets tests may read. */
export type UpstreamDatasetName = 'confaide' | 'privacylens' | 'pacbench';

declare module 'vitest' {
  interface TaskMeta {
    /** The upstream dataset a test needs; it is skipped when the dataset is absent (read by the reporter). */
    upstreamDataset?: UpstreamDatasetName;
    /** Why it was skipped: `not found`, or the files the copy lacks. */
    upstreamMissing?: string;
  }
}

/** One upstream dataset as tests see it. */
export type UpstreamDataset = {
  name: UpstreamDatasetName;
  /** The data dir holding `<name>/` (what `--data-dir` / `CONFIDANT_DATA_DIR` would point at). */
  dataDir: string;
  /** `<dataDir>/<name>`. */
  dir: string;
  /** Whether `<dataDir>/<name>` is a directory (holding the files asked for). */
  available: boolean;
  /** Why the tests are skipped, naming the dataset and the fix (empty when available). */
  skipReason: string;
  /**
   * Options for `describe(name, options, fn)` / `it(name, options, fn)`: skip without the data,
   * and mark the tests (with the reason) for the reporter's closing line and CI's check.
   */
  testOptions: { skip: boolean; meta: { upstreamDataset: UpstreamDatasetName; upstreamMissing?: string } };
};

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The location and availability of one upstream dataset for tests. `files` (relative to the
 * dataset folder) narrows "available" to copies holding those files, for tests that read a file
 * `data pull` does not install (PrivacyLens's derived `privact_split.json`).
 */
export function upstreamDataset(name: UpstreamDatasetName, { files = [] }: { files?: string[] } = {}): UpstreamDataset {
  const dir = join(testDataDir, name);
  const missing = files.filter((file) => !isFile(join(dir, file)));
  const available = isDirectory(dir) && missing.length === 0;
  const missingPhrase = !isDirectory(dir) ? 'not found' : `lacks ${missing.join(', ')}`;
  return {
    name,
    dataDir: testDataDir,
    dir,
    available,
    skipReason: available ? '' : `upstream dataset '${name}' at ${dir}: ${missingPhrase} (set ${TEST_DATA_ENV})`,
    testOptions: {
      skip: !available,
      meta: { upstreamDataset: name, ...(available ? {} : { upstreamMissing: missingPhrase }) },
    },
  };
}
