// Bundles the CLI after tsc (`npm run build`), for start-up CPU. Two files go into dist/cli/bundle/:
// - cli.cjs: the whole CLI (dist/cli/bundle-entry.js and everything it imports from dist/, plus
//   zod, commander and p-limit) as one CommonJS file, in which esbuild wraps each module that is
//   imported lazily in a function run on first use, so a command still runs only the code it
//   needs (and requires the other packages, from node_modules, only then).
// - main.js: the loader (dist/cli/bundled-main.js): it answers `--version` alone, and otherwise
//   compiles cli.cjs through a V8 code cache in the user's cache folder (src/cli/code-cache.ts).
// dist/cli/main.js becomes a one-line import of bundle/main.js; the rest of dist/ stays as tsc
// wrote it (the library entries, which this does not touch). Why one file and a code cache: Node
// 20 has no module compile cache, and its ESM loader spent a third of a short run resolving,
// reading, compiling and linking the ~110 chunk files that a split ESM bundle loads for a
// `run confaide` (and 375 modules before there was a bundle). Every other package (AI SDK
// providers, MCP, SQLite, transformers, llama.cpp, yaml, tar, cli-progress) stays external and is
// loaded from node_modules when used, as before: `require`d where a bundled module imports it
// statically (each has a CommonJS build), `import()`ed where it is imported dynamically.
//
// Module paths: code that finds files next to its own module (`import.meta.url`: prompt
// templates, starter data, prices.json, createRequire) is rewritten to name the file it was
// compiled to, relative to the bundle folder, so the bundle finds the same files wherever the
// package is installed.
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const outdir = join(dist, 'cli', 'bundle');
const entry = join(dist, 'cli', 'main.js');
const bundleEntry = join(dist, 'cli', 'bundle-entry.js');
const loaderEntry = join(dist, 'cli', 'bundled-main.js');

/** Packages bundled with the CLI: the ones every command's start-up imports. */
const BUNDLED = new Set(['zod', 'commander', 'p-limit', 'yocto-queue']);
const packageOf = (specifier) => {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
};

/** The bundling rules; `fileUrl` is how the output format names its own file's URL. */
const plugin = (fileUrl) => ({
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
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, ${fileUrl}).href`),
        loader: 'js',
      };
    });
  },
});

const common = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning', legalComments: 'none' };

// The CLI. code-cache.ts runs it with `require`, `__filename` and `__dirname` of its own file.
const cli = join(outdir, 'cli.cjs');
await build({
  ...common,
  entryPoints: [bundleEntry],
  outfile: cli,
  format: 'cjs',
  plugins: [plugin('require("node:url").pathToFileURL(__filename)')],
});
// Node 20 drops a vm script's dynamic-import callback from functions it takes from a code cache,
// so the bundle's `import()`s (of the AI SDK providers and optional peers) call the loader's
// import instead. Textual, on the bundle: a comment that names `import()` is rewritten too, to no
// effect; no string literal of the bundle holds it (check the output's `import(`s when this changes).
const cliText = (await readFile(cli, 'utf8')).replace(/(?<![\w$.])import\(/g, '__confidantImport(');
await writeFile(cli, cliText);
const bundleHash = createHash('sha256').update(cliText).digest('hex').slice(0, 16);

// The loader, which names the CLI's hash to key its code cache.
await build({
  ...common,
  entryPoints: [loaderEntry],
  outfile: join(outdir, 'main.js'),
  format: 'esm',
  define: { CONFIDANT_CLI_BUNDLE_HASH: JSON.stringify(bundleHash) },
  plugins: [plugin('import.meta.url')],
});
await writeFile(
  entry,
  "#!/usr/bin/env node\n// The CLI, bundled by scripts/bundle-cli.mjs at build time.\nimport './bundle/main.js';\n",
);
await rm(`${entry}.map`, { force: true });
