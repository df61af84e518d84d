// Copies non-TypeScript assets (judge templates, starter data) from src/ to dist/ after tsc,
// because tsc only emits what it compiles, and makes the CLI entry executable.
import { chmodSync, cpSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const assetPattern = /\.(md|json|jsonl|txt)$/;
const skipDirs = new Set(['__fixtures__']);

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!skipDirs.has(name)) walk(path);
    } else if (assetPattern.test(name)) {
      const target = join(dist, relative(src, path));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(path, target);
    }
  }
}
walk(src);
// npm links the bin before `prepare` builds it, so it cannot mark the file executable itself.
chmodSync(join(dist, 'cli', 'main.js'), 0o755);
