import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeCacheFile, loadWithCodeCache, pruneCodeCaches } from './code-cache.js';

let work = '';
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'confidant-code-cache-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const dynamicImport = (specifier: string) => import(specifier);

type Exports = { answer: (n: number) => number; here: string; joined: string; dynamic: () => Promise<string> };

function writeBundle(): string {
  const file = join(work, 'bundle.cjs');
  writeFileSync(
    file,
    [
      'const { join } = require("node:path");',
      'exports.answer = (n) => n * 2 + 1;',
      'exports.here = __dirname;',
      'exports.joined = join("a", "b");',
      'exports.dynamic = async () => (await __confidantImport("node:path")).sep;',
    ].join('\n'),
  );
  return file;
}

describe('loadWithCodeCache', () => {
  it('runs the file as CommonJS without a cache', async () => {
    const file = writeBundle();
    const loaded = loadWithCodeCache<Exports>({ file, cacheFile: undefined, dynamicImport });
    expect(loaded.cache).toBe('missing');
    expect(loaded.exports.answer(20)).toBe(41);
    expect(loaded.exports.here).toBe(work);
    expect(loaded.exports.joined).toBe(join('a', 'b'));
    // Dynamic imports go through node's loader.
    expect(await loaded.exports.dynamic()).toBe(sep);
    loaded.save();
    expect(readdirSync(work)).toEqual(['bundle.cjs']);
  });

  it('stores a cache that the next load accepts', () => {
    const file = writeBundle();
    const cacheFile = join(work, 'cache', 'cli.bin');
    const first = loadWithCodeCache<Exports>({ file, cacheFile, dynamicImport });
    expect(first.cache).toBe('missing');
    expect(first.exports.answer(1)).toBe(3);
    first.save();
    expect(readFileSync(cacheFile).length).toBeGreaterThan(0);
    // No temporary file is left beside it.
    expect(readdirSync(join(work, 'cache'))).toEqual(['cli.bin']);

    const second = loadWithCodeCache<Exports>({ file, cacheFile, dynamicImport });
    expect(second.cache).toBe('accepted');
    expect(second.exports.answer(2)).toBe(5);
  });

  it('imports dynamically through the given function, from a cached load too', async () => {
    const file = writeBundle();
    const cacheFile = join(work, 'cli.bin');
    const first = loadWithCodeCache<Exports>({ file, cacheFile, dynamicImport });
    expect(await first.exports.dynamic()).toBe(sep);
    first.save();
    const second = loadWithCodeCache<Exports>({ file, cacheFile, dynamicImport });
    expect(second.cache).toBe('accepted');
    expect(await second.exports.dynamic()).toBe(sep);
  });

  it('ignores a cache V8 refuses, runs the file all the same and rebuilds the cache', () => {
    const file = writeBundle();
    const cacheFile = join(work, 'cli.bin');
    writeFileSync(cacheFile, 'not a code cache, or a torn one');
    const loaded = loadWithCodeCache<Exports>({ file, cacheFile, dynamicImport });
    expect(loaded.cache).toBe('rejected');
    expect(loaded.exports.answer(3)).toBe(7);
    loaded.save();
    expect(loadWithCodeCache<Exports>({ file, cacheFile, dynamicImport }).cache).toBe('accepted');
  });

  it('rebuilds the cache of a changed file', () => {
    const file = writeBundle();
    const cacheFile = join(work, 'cli.bin');
    loadWithCodeCache<Exports>({ file, cacheFile, dynamicImport }).save();
    writeFileSync(file, 'exports.answer = (n) => n * 3;');
    const loaded = loadWithCodeCache<Exports>({ file, cacheFile, dynamicImport });
    expect(loaded.cache).toBe('rejected');
    expect(loaded.exports.answer(3)).toBe(9);
  });

  it('never throws for a cache it cannot write', () => {
    const file = writeBundle();
    // The cache's folder is a file: mkdir and write fail.
    writeFileSync(join(work, 'blocked'), '');
    const loaded = loadWithCodeCache<Exports>({ file, cacheFile: join(work, 'blocked', 'cli.bin'), dynamicImport });
    expect(() => loaded.save()).not.toThrow();
    expect(readdirSync(work).sort()).toEqual(['blocked', 'bundle.cjs']);
  });
});

describe('codeCacheFile', () => {
  const base = { dir: '/c', bundleHash: 'abc', execArgv: [], nodeOptions: undefined, heapPolicy: false };

  it('differs by bundle, node flags and heap policy', () => {
    const plain = codeCacheFile(base);
    expect(plain.startsWith(join('/c', `cli-abc-${process.version}-${process.arch}-`))).toBe(true);
    expect(codeCacheFile({ ...base, bundleHash: 'abd' })).not.toBe(plain);
    expect(codeCacheFile({ ...base, execArgv: ['--cpu-prof'] })).not.toBe(plain);
    expect(codeCacheFile({ ...base, nodeOptions: '--max-old-space-size=96' })).not.toBe(plain);
    expect(codeCacheFile({ ...base, heapPolicy: true })).not.toBe(plain);
    expect(codeCacheFile(base)).toBe(plain);
  });
});

describe('pruneCodeCaches', () => {
  it("removes other bundles' caches only", () => {
    const dir = join(work, 'code');
    mkdirSync(dir);
    for (const name of ['cli-old-v20-x64-1-heap.bin', 'cli-new-v20-x64-1-heap.bin', 'other.txt']) {
      writeFileSync(join(dir, name), '');
    }
    pruneCodeCaches({ dir, bundleHash: 'new' });
    expect(readdirSync(dir).sort()).toEqual(['cli-new-v20-x64-1-heap.bin', 'other.txt']);
    expect(() => pruneCodeCaches({ dir: join(work, 'none'), bundleHash: 'new' })).not.toThrow();
  });
});
