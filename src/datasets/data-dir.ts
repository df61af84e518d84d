import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatasetNotFoundError } from '../spec/errors.js';
import { datasetCatalog } from './dataset-catalog.js';
import { inspectDatasetFile } from './inspect-dataset-file.js';

/** The environment variable that names the data directory. Only `cli/` reads it and passes it in. */
export const DATA_DIR_ENV = 'CONFIDANT_DATA_DIR';

/**
 * Resolves the data directory: `--data-dir` first, then `CONFIDANT_DATA_DIR` from the given
 * environment, then `<home>/.cache/confidant/datasets`. Empty strings count as unset. The
 * caller (the CLI) supplies the flag, the environment and the home directory, so this never
 * reads process state itself. Relative paths are resolved against the working directory.
 */
export function resolveDataDir({
  flag,
  env,
  home,
}: {
  flag?: string | undefined;
  env?: Readonly<Record<string, string | undefined>>;
  home: string;
}): string {
  if (flag) return resolve(flag);
  const fromEnv = env?.[DATA_DIR_ENV];
  if (fromEnv) return resolve(fromEnv);
  return join(home, '.cache', 'confidant', 'datasets');
}

/**
 * Returns `<dataDir>/<name>` when it is a directory; otherwise throws a DatasetNotFoundError
 * that tells the user how to get the data. `howToGet` replaces the default `data pull` hint for
 * datasets that cannot be pulled.
 */
export function requireDatasetDir({
  dataDir,
  name,
  howToGet,
}: {
  dataDir: string;
  name: string;
  howToGet?: string;
}): string {
  const dir = join(dataDir, name);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) {
    const hint =
      howToGet ??
      `run \`confidant data pull ${name}\` (offline: add \`--from <dir|file.tar.gz>\`), or set --data-dir / ${DATA_DIR_ENV}`;
    throw new DatasetNotFoundError(`dataset '${name}' not found in ${dataDir}: ${hint}`);
  }
  return dir;
}

/**
 * The fix for a damaged copy of a dataset: pull it again (from the network, or from a local copy
 * for datasets that cannot be downloaded), then verify.
 */
export function restoreHint({
  name,
  downloadable = datasetCatalog.find((entry) => entry.name === name)?.downloadable ?? true,
}: {
  name: string;
  downloadable?: boolean;
}): string {
  const pull = downloadable
    ? `\`confidant data pull ${name}\` (offline: \`confidant data pull ${name} --from <dir|file.tar.gz>\`)`
    : `\`confidant data pull ${name} --from <your copy>\``;
  return `restore it with ${pull}, then check it with \`confidant data verify ${name}\``;
}

/**
 * Like {@link requireDatasetDir}, and also checks that every file in `files` (relative to the
 * dataset folder) is a non-empty regular file this process can read. A partial copy is a
 * DatasetNotFoundError (a user error) that names every missing or unusable file at once, so the
 * user fixes the copy in one go instead of meeting the files one crash at a time. Returns the
 * dataset folder.
 */
export function requireDatasetFiles({
  dataDir,
  name,
  files,
  howToGet,
  howToRestore,
}: {
  dataDir: string;
  name: string;
  files: readonly string[];
  howToGet?: string;
  /** Replaces {@link restoreHint} (for datasets that cannot be pulled). */
  howToRestore?: string;
}): string {
  const dir = requireDatasetDir({ dataDir, name, ...(howToGet === undefined ? {} : { howToGet }) });
  const problems: string[] = [];
  for (const file of files) {
    const state = inspectDatasetFile(join(dir, file));
    if (!state.ok) problems.push(`${file} ${state.detail}`);
  }
  if (problems.length > 0) {
    throw new DatasetNotFoundError(
      `dataset '${name}' in ${dir} is incomplete: ${problems.join('; ')}. ${capitalize(howToRestore ?? restoreHint({ name }))}`,
    );
  }
  return dir;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
