// Bundles the CLI entry after tsc (`npm run build`): dist/cli/main.js and everything it imports
// from dist/, plus the few packages every command's start-up loads (zod, commander, p-limit), go
// into dist/cli/bundle/ as one entry and lazy chunks, one per group of dynamic imports (a suite,
// a command, a provider), so a command still loads only what it needs. dist/cli/main.js becomes a
// one-line loader of dist/cli/bundle/main.js; the rest of dist/ stays as tsc wrote it (the library
// entries, which this does not touch). Why: start-up CPU. Node's ESM loader spends most of a short
// run resolving, reading and linking ~375 small modules (95 of them zod's, 50 of those its locale
// files); the bundle loads about a hundred files instead. Every other package (AI SDK providers,
// MCP, SQLite, transformers, llama.cpp, yaml, tar, cli-progress) stays external and is loaded
// from node_modules when used, as before.
//
// Module paths: code that finds files next to its own module (`import.meta.url`: prompt
// templates, starter data, prices.json, createRequire) is rewritten to name the file it was
// compiled to, relative to the bundle folder, so the bundle finds the same files wherever the
// package is installed.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const outdir = join(dist, 'cli', 'bundle');
const entry = join(dist, 'cli', 'main.js');

/** Packages bundled with the CLI: the ones every command's start-up imports. */
const BUNDLED = new Set(['zod', 'commander', 'p-limit', 'yocto-queue']);
const packageOf = (specifier) => {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
};

const plugin = {
  name: 'confidant-cli',
  setup(esbuild) {
    // Bare specifiers outside BUNDLED stay imports, resolved from node_modules at run time.
    esbuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || !BUNDLED.has(packageOf(args.path))) {
        return { path: args.path, external: true };
      }
      return undefined;
    });
    // zod's 50 locale bundles: the CLI configures none but English (zod's default), and
    // `z.locales` is never read, so the bundle carries only `en`.
    esbuild.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir)
        ? { path: join(args.resolveDir, '..', 'locales', 'en.js'), namespace: 'zod-en-only' }
        : undefined,
    );
    esbuild.onLoad({ filter: /.*/, namespace: 'zod-en-only' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
    esbuild.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(dist)) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const own = relative(outdir, args.path).split('\\').join('/');
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, import.meta.url).href`),
        loader: 'js',
      };
    });
  },
};

if ((await readFile(entry, 'utf8')).includes('./bundle/main.js')) {
  throw new Error(`${entry} is already bundled: run \`npm run build\`, which compiles it first`);
}

await build({
  entryPoints: [entry],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: '[name]-[hash]',
  // commander is CommonJS: its `require('node:events')` and the like need a `require`.
  banner: {
    js: "import { createRequire as __confidantRequire } from 'node:module';\nconst require = __confidantRequire(import.meta.url);",
  },
  plugins: [plugin],
  logLevel: 'warning',
  legalComments: 'none',
});

// The entry keeps its name and shebang; the bundle entry has no shebang of its own to keep.
const bundled = join(outdir, 'main.js');
const text = await readFile(bundled, 'utf8');
await writeFile(bundled, text.replace(/^#!.*\n/, ''));
await writeFile(
  entry,
  "#!/usr/bin/env node\n// The CLI, bundled by scripts/bundle-cli.mjs at build time.\nimport './bundle/main.js';\n",
);
await rm(`${entry}.map`, { force: true });
