import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** What a code-cached load of a CommonJS file gave: its exports, and how to store its code cache. */
export type CodeCachedModule<T> = {
  /** The file's `module.exports`. */
  exports: T;
  /** `accepted`: V8 used the stored cache; `rejected`: it refused it (rebuilt on save); `missing`: none was stored (or none asked for). */
  cache: 'accepted' | 'rejected' | 'missing';
  /**
   * Stores the file's code cache (every function compiled so far) when it was missing or
   * rejected; call it once the work is done, so the cache holds what the work compiled. Written
   * to a temporary file and renamed over the cache, so a concurrent reader sees a whole cache or
   * none; never throws (a cache that cannot be written is only not written).
   */
  save(): void;
};

/**
 * Loads a CommonJS file (a bundle: its `require` resolves from the file's folder) through a V8
 * code cache, which spares compiling it, and the functions it ran last time, again. `cacheFile`
 * undefined loads it without one. A cache V8 rejects (another V8, other flags, a torn or foreign
 * file) is ignored and rebuilt by `save`; an unreadable one counts as missing. The file cannot
 * use `import()` (node 20 drops a script's dynamic-import callback from the functions it takes
 * from a code cache): it calls `__confidantImport(specifier)` instead, which is `dynamicImport`.
 */
export function loadWithCodeCache<T>({
  file,
  cacheFile,
  dynamicImport,
}: {
  file: string;
  cacheFile: string | undefined;
  dynamicImport: (specifier: string) => Promise<unknown>;
}): CodeCachedModule<T> {
  const source = readFileSync(file, 'utf8');
  let cachedData: Buffer | undefined;
  if (cacheFile !== undefined) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  // `0, function`: a parenthesised function V8 would compile eagerly, every function in it, and a
  // declaration would leave a global behind.
  const script = new Script(
    `0, function (exports, require, module, __filename, __dirname, __confidantImport) {${source}\n}`,
    { filename: file, ...(cachedData === undefined ? {} : { cachedData }) },
  );
  const cache = cachedData === undefined ? 'missing' : script.cachedDataRejected === true ? 'rejected' : 'accepted';
  const module = { exports: {} as T };
  const wrapper = script.runInThisContext() as (
    exports: T,
    require: NodeJS.Require,
    module: { exports: T },
    filename: string,
    dirname: string,
    dynamicImport: (specifier: string) => Promise<unknown>,
  ) => void;
  wrapper(module.exports, createRequire(file), module, file, dirname(file), dynamicImport);
  let saved = false;
  return {
    exports: module.exports,
    cache,
    save() {
      if (saved || cacheFile === undefined || cache === 'accepted') return;
      saved = true;
      writeAtomically(cacheFile, () => script.createCachedData());
    },
  };
}

function writeAtomically(file: string, data: () => Buffer): void {
  const temporary = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temporary, data());
    renameSync(temporary, file);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written, or nothing can be removed there either.
    }
  }
}

/**
 * The code cache's file for a bundle in `dir`: one per bundle (`bundleHash`, its content hash),
 * node version and architecture, node flags (`execArgv`, NODE_OPTIONS) and heap-policy state,
 * since V8 rejects a cache built under other flags (so a cache is never rebuilt over and over by
 * two kinds of command line that take turns).
 */
export function codeCacheFile({
  dir,
  bundleHash,
  execArgv,
  nodeOptions,
  heapPolicy,
}: {
  dir: string;
  bundleHash: string;
  execArgv: readonly string[];
  nodeOptions: string | undefined;
  heapPolicy: boolean;
}): string {
  const flags = fnv1a(JSON.stringify([execArgv, nodeOptions ?? '']));
  return join(
    dir,
    `cli-${bundleHash}-${process.version}-${process.arch}-${flags}-${heapPolicy ? 'heap' : 'default'}.bin`,
  );
}

/** Removes the code caches in `dir` of bundles other than `bundleHash` (older installs); never throws. */
export function pruneCodeCaches({ dir, bundleHash }: { dir: string; bundleHash: string }): void {
  try {
    for (const name of readdirSync(dir)) {
      if (name.startsWith('cli-') && !name.startsWith(`cli-${bundleHash}-`)) rmSync(join(dir, name), { force: true });
    }
  } catch {
    // No folder yet, or one we may not list: nothing to prune.
  }
}

/** 32-bit FNV-1a of a string, in hex: a short, stable file-name key. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
