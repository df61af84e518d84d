import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatasetNotFoundError } from '../spec/errors.js';

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
  let isDirectory = false;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) {
    const hint = howToGet ?? `run \`confidant data pull ${name}\` (or set --data-dir / ${DATA_DIR_ENV})`;
    throw new DatasetNotFoundError(`dataset '${name}' not found in ${dataDir}: ${hint}`);
  }
  return dir;
}
