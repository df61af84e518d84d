import { join } from 'node:path';

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
