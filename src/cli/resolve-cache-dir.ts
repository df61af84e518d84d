import { join, resolve } from 'node:path';

/** The default cache directory: `--cache-dir`, then CONFIDANT_CACHE_DIR, then under the user cache dir. */
export function resolveCacheDir({
  flag,
  env,
  home,
}: {
  flag?: string | undefined;
  env: Record<string, string | undefined>;
  home: string;
}): string {
  return flag || env.CONFIDANT_CACHE_DIR || join(home, '.cache', 'confidant', 'cache');
}

/**
 * The cache directory of a run that continues a recorded one (`resume`, `rescore`): `--cache-dir`
 * (against `cwd`), then the one the run recorded, then the default, as an absolute path.
 */
export function continuedRunCacheDir({
  flag,
  recorded,
  cwd,
  env,
  home,
}: {
  flag: string | undefined;
  recorded: string | undefined;
  cwd: string;
  env: Record<string, string | undefined>;
  home: string;
}): string {
  if (flag !== undefined) return resolve(cwd, flag);
  return recorded ?? resolve(cwd, resolveCacheDir({ env, home }));
}
