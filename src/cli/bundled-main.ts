import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPackageVersion } from '../runner/package-info.js';
import { codeCacheFile, loadWithCodeCache, pruneCodeCaches } from './code-cache.js';
import { applyHeapPolicy, heapPolicyExpected } from './heap-policy.js';
import { versionOnly } from './version-only.js';

/** The content hash of dist/cli/bundle/cli.cjs, written in by scripts/bundle-cli.mjs. */
declare const CONFIDANT_CLI_BUNDLE_HASH: string;

type Bundle = typeof import('./bundle-entry.js');

/**
 * The built CLI's start (scripts/bundle-cli.mjs bundles it as dist/cli/bundle/main.js, which
 * dist/cli/main.js imports): `--version` alone is answered here; every other command line runs the
 * single-file CommonJS bundle of the CLI (bundle-entry.ts), compiled through a V8 code cache in
 * node_modules/.cache/confidant/ that the first run of each bundle, node and flags builds (see
 * code-cache.ts). Node 20 has no module compile cache of its own, and compiling the CLI was a
 * good part of every command's start-up CPU. CONFIDANT_CODE_CACHE=off loads it without a cache.
 */
export async function startBundledCli(): Promise<void> {
  if (versionOnly(process.argv)) {
    process.stdout.write(`${readPackageVersion()}\n`);
    return;
  }
  const bundleHash = CONFIDANT_CLI_BUNDLE_HASH;
  const file = fileURLToPath(new URL('./bundle/cli.cjs', import.meta.url));
  const dir = codeCacheDir(file);
  // V8 accepts a code cache only under the flags it was built with, and the heap policy sets one:
  // a command that will apply it applies it now, before the CLI is compiled (and again, to no
  // effect, where it always did).
  const heapPolicy = heapPolicyExpected({ argv: process.argv, execArgv: process.execArgv });
  if (heapPolicy) applyHeapPolicy({ execArgv: process.execArgv });
  const cacheFile =
    process.env.CONFIDANT_CODE_CACHE === 'off'
      ? undefined
      : codeCacheFile({
          dir,
          bundleHash,
          execArgv: process.execArgv,
          nodeOptions: process.env.NODE_OPTIONS,
          heapPolicy,
        });
  const bundle = loadWithCodeCache<Bundle>({
    file,
    cacheFile,
    // From dist/cli/bundle/main.js, beside cli.cjs: resolved as the bundle's own imports would be.
    dynamicImport: (specifier) => import(specifier),
  });
  await bundle.exports.startCli();
  // A cache built after the flags changed unforeseen would be filed under the wrong key.
  if (bundle.cache !== 'accepted' && (heapPolicy || !bundle.exports.heapPolicyApplied())) {
    bundle.save();
    if (bundle.cache === 'missing') pruneCodeCaches({ dir, bundleHash });
  }
}

/**
 * Where the code cache goes: node_modules/.cache/confidant/ of the install (the folder other tools
 * keep caches of installed code in; it goes with the install), or of the package itself when it is
 * not installed as a dependency (a clone). Nothing is written under the user's home.
 */
function codeCacheDir(bundleFile: string): string {
  const packageRoot = join(dirname(bundleFile), '..', '..', '..');
  const parent = dirname(packageRoot);
  const modules =
    basename(parent) === 'node_modules'
      ? parent
      : basename(dirname(parent)) === 'node_modules' && basename(parent).startsWith('@')
        ? dirname(parent)
        : join(packageRoot, 'node_modules');
  return join(modules, '.cache', 'confidant');
}

await startBundledCli();
