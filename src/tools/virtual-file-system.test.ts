import { describe, expect, it } from 'vitest';
import {
  diffSnapshots,
  flattenTree,
  listFiles,
  nodeAt,
  splitCanonicalPath,
  VirtualFileSystem,
  VirtualFileSystemError,
} from './virtual-file-system.js';

function createVfs(): { vfs: VirtualFileSystem; tick: () => void } {
  let now = 1_000;
  const vfs = new VirtualFileSystem({ roots: ['agents/a', 'agents/b', 'shared'], now: () => now });
  const tick = (): void => {
    now += 1_000;
  };
  return { vfs, tick };
}

function codeOf(run: () => void): string {
  try {
    run();
  } catch (error) {
    if (error instanceof VirtualFileSystemError) return error.code;
    throw error;
  }
  return 'no error';
}

describe('VirtualFileSystem', () => {
  it('starts with its roots as empty directories', () => {
    const { vfs } = createVfs();
    expect(flattenTree(vfs.snapshot())).toEqual({
      agents: null,
      'agents/a': null,
      'agents/b': null,
      shared: null,
    });
  });

  it('writes, replaces and attributes files, keeping the creation time', () => {
    const { vfs, tick } = createVfs();
    vfs.writeFile({ path: 'shared/r.md', content: 'héllo', writer: 'a' });
    tick();
    vfs.writeFile({ path: 'shared/r.md', content: 'v2', writer: 'b' });
    expect(vfs.get('shared/r.md')).toEqual({
      kind: 'file',
      content: 'v2',
      size: 2,
      createdAt: 1_000,
      modifiedAt: 2_000,
      lastWriter: 'b',
    });
    vfs.writeFile({ path: 'shared/u.md', content: 'héllo', writer: null });
    expect(vfs.get('shared/u.md')).toMatchObject({ size: 6, lastWriter: null });
  });

  it('reports where a lookup stops', () => {
    const { vfs } = createVfs();
    vfs.writeFile({ path: 'agents/a/f.txt', content: 'x', writer: 'a' });
    expect(vfs.lookup('agents/a/f.txt').status).toBe('found');
    expect(vfs.lookup('agents/a/new.txt')).toEqual({ status: 'missing', parentIsDirectory: true });
    expect(vfs.lookup('agents/a/no/new.txt')).toEqual({ status: 'missing', parentIsDirectory: false });
    expect(vfs.lookup('agents/a/f.txt/inner')).toEqual({ status: 'through-file', filePath: 'agents/a/f.txt' });
  });

  it('refuses writes and directories where POSIX would', () => {
    const { vfs } = createVfs();
    vfs.writeFile({ path: 'shared/f', content: 'x', writer: 'a' });
    expect(codeOf(() => vfs.writeFile({ path: 'shared/none/f', content: 'x', writer: 'a' }))).toBe('ENOENT');
    expect(codeOf(() => vfs.writeFile({ path: 'shared/f/g', content: 'x', writer: 'a' }))).toBe('ENOTDIR');
    expect(codeOf(() => vfs.writeFile({ path: 'shared', content: 'x', writer: 'a' }))).toBe('EISDIR');
    expect(codeOf(() => vfs.createDirectory({ path: 'shared/f' }))).toBe('EEXIST');
    expect(codeOf(() => vfs.createDirectory({ path: 'shared/f/g' }))).toBe('ENOTDIR');
    vfs.createDirectory({ path: 'shared/d/e/f' });
    vfs.createDirectory({ path: 'shared/d/e' });
    expect(vfs.get('shared/d/e/f')?.kind).toBe('directory');
  });

  it('moves files and trees, makes the mover their last writer, and never moves a root', () => {
    const { vfs } = createVfs();
    vfs.createDirectory({ path: 'agents/a/d' });
    vfs.writeFile({ path: 'agents/a/d/f.txt', content: 'x', writer: null });
    vfs.move({ source: 'agents/a/d', destination: 'shared/d', writer: 'a' });
    expect(listFiles(vfs.snapshot()).map(({ path, file }) => [path, file.lastWriter])).toEqual([
      ['shared/d/f.txt', 'a'],
    ]);
    vfs.writeFile({ path: 'shared/g.txt', content: 'y', writer: 'b' });
    expect(codeOf(() => vfs.move({ source: 'shared/g.txt', destination: 'shared/d', writer: 'a' }))).toBe('EEXIST');
    expect(codeOf(() => vfs.move({ source: 'shared/none', destination: 'shared/z', writer: 'a' }))).toBe('ENOENT');
    expect(codeOf(() => vfs.move({ source: 'shared/d', destination: 'shared/d/in', writer: 'a' }))).toBe('EINVAL');
    expect(codeOf(() => vfs.move({ source: 'shared/g.txt', destination: 'shared/no/g', writer: 'a' }))).toBe('ENOENT');
    expect(codeOf(() => vfs.move({ source: 'shared', destination: 'agents/a/s', writer: 'a' }))).toBe('EBUSY');
    expect(codeOf(() => vfs.move({ source: 'agents', destination: 'shared/x', writer: 'a' }))).toBe('EBUSY');
    expect(codeOf(() => vfs.remove({ path: 'agents/b' }))).toBe('EBUSY');
    vfs.remove({ path: 'shared/d' });
    expect(Object.keys(flattenTree(vfs.snapshot(), 'shared'))).toEqual(['shared/g.txt']);
  });

  it('rejects non-canonical paths as operator errors', () => {
    for (const path of ['/shared', 'shared/', 'shared//x', 'shared/./x', 'shared/../x', 'a\u0000b']) {
      expect(() => splitCanonicalPath(path)).toThrow(VirtualFileSystemError);
    }
    expect(splitCanonicalPath('')).toEqual([]);
    expect(() => new VirtualFileSystem({ roots: [''] })).toThrow(/a root needs a name/);
  });
});

describe('snapshots and diffs', () => {
  it('keeps a snapshot unchanged by later writes and shares untouched subtrees', () => {
    const { vfs } = createVfs();
    vfs.writeFile({ path: 'agents/a/f.txt', content: 'one', writer: 'a' });
    const first = vfs.snapshot();
    vfs.writeFile({ path: 'shared/g.txt', content: 'two', writer: 'b' });
    vfs.writeFile({ path: 'agents/a/f.txt', content: 'changed', writer: 'a' });
    expect(nodeAt(first, 'agents/a/f.txt')).toMatchObject({ content: 'one' });
    expect(nodeAt(first, 'shared/g.txt')).toBeUndefined();
    const second = vfs.snapshot();
    expect(nodeAt(second, 'agents/b')).toBe(nodeAt(first, 'agents/b'));
    expect(nodeAt(second, 'agents/a')).not.toBe(nodeAt(first, 'agents/a'));
    vfs.restore(first);
    expect(vfs.get('agents/a/f.txt')).toMatchObject({ content: 'one' });
  });

  it('lists added, changed and deleted files between two snapshots', () => {
    const { vfs } = createVfs();
    vfs.writeFile({ path: 'shared/keep.md', content: 'same', writer: 'a' });
    vfs.writeFile({ path: 'shared/edit.md', content: 'v1', writer: 'a' });
    vfs.writeFile({ path: 'shared/gone.md', content: 'bye', writer: 'a' });
    vfs.writeFile({ path: 'shared/swap', content: 'file first', writer: 'a' });
    const before = vfs.snapshot();
    vfs.writeFile({ path: 'shared/keep.md', content: 'same', writer: 'b' });
    vfs.writeFile({ path: 'shared/edit.md', content: 'v2', writer: 'a' });
    vfs.remove({ path: 'shared/gone.md' });
    vfs.remove({ path: 'shared/swap' });
    vfs.createDirectory({ path: 'shared/swap' });
    vfs.writeFile({ path: 'shared/swap/inner.md', content: 'now a folder', writer: 'a' });
    vfs.writeFile({ path: 'agents/b/new.md', content: 'new', writer: 'b' });
    vfs.createDirectory({ path: 'shared/empty' });
    expect(diffSnapshots(before, vfs.snapshot())).toEqual({
      'agents/b/new.md': 'new',
      'shared/edit.md': 'v2',
      'shared/gone.md': null,
      'shared/swap': null,
      'shared/swap/inner.md': 'now a folder',
    });
    expect(diffSnapshots(before, before)).toEqual({});
    expect(Object.keys(diffSnapshots(before, vfs.snapshot()))).toEqual(
      Object.keys(diffSnapshots(before, vfs.snapshot())).sort(),
    );
  });

  it('lists files and flattens trees below a folder', () => {
    const { vfs } = createVfs();
    vfs.writeFile({ path: 'shared/b.md', content: 'B', writer: 'a' });
    vfs.createDirectory({ path: 'shared/a' });
    vfs.writeFile({ path: 'shared/a/z.md', content: 'Z', writer: 'b' });
    vfs.writeFile({ path: 'agents/a/p.md', content: 'P', writer: 'a' });
    expect(listFiles(vfs.snapshot(), 'shared').map(({ path }) => path)).toEqual(['shared/a/z.md', 'shared/b.md']);
    expect(flattenTree(vfs.snapshot(), 'shared')).toEqual({
      'shared/a': null,
      'shared/a/z.md': 'Z',
      'shared/b.md': 'B',
    });
    expect(listFiles(vfs.snapshot(), 'shared/none')).toEqual([]);
  });
});
