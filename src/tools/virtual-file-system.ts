import { ConfidantError } from '../spec/errors.js';

/** A file: UTF-8 text. Nodes are immutable; every change builds new nodes along its path. */
export type VirtualFile = {
  readonly kind: 'file';
  readonly content: string;
  /** Size in UTF-8 bytes, as a disk would report it. */
  readonly size: number;
  readonly createdAt: number;
  readonly modifiedAt: number;
  /** The participant whose call last wrote or moved this file; `null` for seeded files. */
  readonly lastWriter: string | null;
};

/** A directory; `entries` is never mutated once the node is built. */
export type VirtualDirectory = {
  readonly kind: 'directory';
  readonly entries: ReadonlyMap<string, VirtualNode>;
  readonly createdAt: number;
  readonly modifiedAt: number;
};

/** A file or a directory. */
export type VirtualNode = VirtualFile | VirtualDirectory;

/** The whole tree at one moment. Taking one is O(1): later changes copy, never mutate. */
export type VirtualSnapshot = { readonly root: VirtualDirectory };

/** Errno-style codes of {@link VirtualFileSystemError}, with the same meaning as on POSIX. */
export type VirtualFileSystemErrorCode = 'ENOENT' | 'ENOTDIR' | 'EISDIR' | 'EEXIST' | 'EBUSY' | 'EINVAL';

/**
 * A VFS operation was called with a precondition that does not hold. The filesystem tools check
 * every condition first and report model mistakes as `ToolError`s, so reaching this is a
 * harness bug: an operator error that ends the sample.
 */
export class VirtualFileSystemError extends ConfidantError {
  readonly code: VirtualFileSystemErrorCode;
  readonly path: string;

  constructor(options: { code: VirtualFileSystemErrorCode; path: string; message: string }) {
    super(`${options.code}: ${options.message}: '${options.path}'`);
    this.name = 'VirtualFileSystemError';
    this.code = options.code;
    this.path = options.path;
  }
}

/** Where a path leads: to a node, to nothing (with or without an existing parent), or into a file. */
export type VirtualLookup =
  | { status: 'found'; node: VirtualNode }
  | { status: 'missing'; parentIsDirectory: boolean }
  | { status: 'through-file'; filePath: string };

/** Files changed between two snapshots: path → new content, or `null` when the file is gone. */
export type VirtualDiff = Record<string, string | null>;

/** Splits a canonical path (`shared/a/b.txt`: relative, `/`-separated, no `.`/`..`/empty parts). */
export function splitCanonicalPath(path: string): string[] {
  if (path === '') return [];
  const parts = path.split('/');
  for (const part of parts) {
    if (part === '' || part === '.' || part === '..' || part.includes('\0')) {
      throw new VirtualFileSystemError({ code: 'EINVAL', path, message: 'not a canonical path' });
    }
  }
  return parts;
}

function joinPath(parent: string, name: string): string {
  return parent === '' ? name : `${parent}/${name}`;
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Entries of a directory, sorted by name (code units) so every listing is deterministic. */
export function sortedEntries(directory: VirtualDirectory): Array<{ name: string; node: VirtualNode }> {
  return [...directory.entries.keys()].sort(byName).map((name) => ({ name, node: directory.entries.get(name)! }));
}

function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * An in-memory file tree for one sample, with named roots (e.g. `agents/agent_a`, `shared`) that
 * always exist and can be neither moved nor removed. Paths here are canonical (see
 * {@link splitCanonicalPath}); turning what a model typed into one, and deciding what it may
 * see, is `WorkspaceView`'s job. The tree is persistent: {@link snapshot} is O(1) and
 * {@link diffSnapshots} skips every subtree two snapshots share.
 */
export class VirtualFileSystem {
  readonly roots: readonly string[];
  readonly #now: () => number;
  #root: VirtualDirectory;

  constructor(options: { roots: readonly string[]; now?: () => number }) {
    this.#now = options.now ?? Date.now;
    this.roots = [...options.roots];
    const at = this.#now();
    this.#root = { kind: 'directory', entries: new Map(), createdAt: at, modifiedAt: at };
    for (const root of this.roots) {
      if (splitCanonicalPath(root).length === 0) {
        throw new VirtualFileSystemError({ code: 'EINVAL', path: root, message: 'a root needs a name' });
      }
      this.createDirectory({ path: root });
    }
  }

  /** The current tree, to keep; later changes never alter it. */
  snapshot(): VirtualSnapshot {
    return { root: this.#root };
  }

  /** Makes an earlier snapshot current again (roots included, since every snapshot has them). */
  restore(snapshot: VirtualSnapshot): void {
    this.#root = snapshot.root;
  }

  /** Follows a canonical path. */
  lookup(path: string): VirtualLookup {
    const parts = splitCanonicalPath(path);
    let node: VirtualNode = this.#root;
    for (let index = 0; index < parts.length; index++) {
      if (node.kind === 'file') return { status: 'through-file', filePath: parts.slice(0, index).join('/') };
      const next: VirtualNode | undefined = node.entries.get(parts[index]!);
      if (next === undefined) {
        const parentIsDirectory = index === parts.length - 1;
        return { status: 'missing', parentIsDirectory };
      }
      node = next;
    }
    return { status: 'found', node };
  }

  /** The node at a canonical path, if any. */
  get(path: string): VirtualNode | undefined {
    const found = this.lookup(path);
    return found.status === 'found' ? found.node : undefined;
  }

  /** Creates or replaces a file. The parent must be a directory and the path must not be one. */
  writeFile(options: { path: string; content: string; writer: string | null }): void {
    const { path, content, writer } = options;
    const parts = splitCanonicalPath(path);
    const existing = this.lookup(path);
    if (existing.status === 'through-file') this.#fail('ENOTDIR', path, 'a parent is a file');
    if (existing.status === 'missing' && !existing.parentIsDirectory) this.#fail('ENOENT', path, 'no parent');
    if (existing.status === 'found' && existing.node.kind === 'directory') this.#fail('EISDIR', path, 'a directory');
    const at = this.#now();
    const createdAt = existing.status === 'found' ? existing.node.createdAt : at;
    const file: VirtualFile = {
      kind: 'file',
      content,
      size: utf8Length(content),
      createdAt,
      modifiedAt: at,
      lastWriter: writer,
    };
    this.#root = this.#replace(this.#root, parts, file, at);
  }

  /** Creates a directory and any missing parents; a no-op when it exists. */
  createDirectory(options: { path: string }): void {
    const parts = splitCanonicalPath(options.path);
    for (let depth = 1; depth <= parts.length; depth++) {
      const prefix = parts.slice(0, depth).join('/');
      const found = this.lookup(prefix);
      if (found.status === 'found') {
        if (found.node.kind === 'file') this.#fail(depth === parts.length ? 'EEXIST' : 'ENOTDIR', prefix, 'a file');
        continue;
      }
      const at = this.#now();
      const directory: VirtualDirectory = { kind: 'directory', entries: new Map(), createdAt: at, modifiedAt: at };
      this.#root = this.#replace(this.#root, parts.slice(0, depth), directory, at);
    }
  }

  /**
   * Moves a file or directory to a path that does not exist yet (its parent must). Every file
   * moved gets `writer` as its last writer: moving is how content changes hands.
   */
  move(options: { source: string; destination: string; writer: string | null }): void {
    const { source, destination, writer } = options;
    const sourceParts = splitCanonicalPath(source);
    const destinationParts = splitCanonicalPath(destination);
    const node = this.get(source);
    if (node === undefined) this.#fail('ENOENT', source, 'no such file or directory');
    if (this.#holdsRoot(source)) this.#fail('EBUSY', source, 'a root cannot move');
    if (destination === source || destination.startsWith(`${source}/`)) {
      this.#fail('EINVAL', destination, 'inside the source');
    }
    const target = this.lookup(destination);
    if (target.status === 'found') this.#fail('EEXIST', destination, 'already exists');
    if (target.status === 'through-file') this.#fail('ENOTDIR', destination, 'a parent is a file');
    if (!target.parentIsDirectory) this.#fail('ENOENT', destination, 'no parent');
    const at = this.#now();
    const moved = writer === null ? node : withWriter(node, writer);
    this.#root = this.#replace(this.#root, sourceParts, undefined, at);
    this.#root = this.#replace(this.#root, destinationParts, moved, at);
  }

  /** Removes a file or a directory with everything under it. Roots cannot be removed. */
  remove(options: { path: string }): void {
    const parts = splitCanonicalPath(options.path);
    if (this.get(options.path) === undefined) this.#fail('ENOENT', options.path, 'no such file or directory');
    if (this.#holdsRoot(options.path)) this.#fail('EBUSY', options.path, 'a root cannot be removed');
    this.#root = this.#replace(this.#root, parts, undefined, this.#now());
  }

  #holdsRoot(path: string): boolean {
    return this.roots.some((root) => root === path || root.startsWith(`${path}/`));
  }

  #fail(code: VirtualFileSystemErrorCode, path: string, message: string): never {
    throw new VirtualFileSystemError({ code, path, message });
  }

  /** Path copying: rebuilds the directories from `directory` down to `parts`, sharing the rest. */
  #replace(directory: VirtualDirectory, parts: string[], node: VirtualNode | undefined, at: number): VirtualDirectory {
    const [name, ...rest] = parts;
    if (name === undefined) throw new VirtualFileSystemError({ code: 'EINVAL', path: '', message: 'the top' });
    const entries = new Map(directory.entries);
    if (rest.length === 0) {
      if (node === undefined) entries.delete(name);
      else entries.set(name, node);
    } else {
      const child = entries.get(name);
      if (child === undefined || child.kind !== 'directory') {
        throw new VirtualFileSystemError({ code: 'ENOENT', path: parts.join('/'), message: 'no parent' });
      }
      entries.set(name, this.#replace(child, rest, node, at));
    }
    return { kind: 'directory', entries, createdAt: directory.createdAt, modifiedAt: at };
  }
}

function withWriter(node: VirtualNode, writer: string): VirtualNode {
  if (node.kind === 'file') return { ...node, lastWriter: writer };
  const entries = new Map<string, VirtualNode>();
  for (const [name, child] of node.entries) entries.set(name, withWriter(child, writer));
  return { ...node, entries };
}

/** The node at a canonical path inside a snapshot, if any. */
export function nodeAt(snapshot: VirtualSnapshot, path: string): VirtualNode | undefined {
  let node: VirtualNode = snapshot.root;
  for (const part of splitCanonicalPath(path)) {
    if (node.kind === 'file') return undefined;
    const next = node.entries.get(part);
    if (next === undefined) return undefined;
    node = next;
  }
  return node;
}

/** Every file of a snapshot under `under` (default: everywhere), sorted by path. */
export function listFiles(snapshot: VirtualSnapshot, under = ''): Array<{ path: string; file: VirtualFile }> {
  const start = nodeAt(snapshot, under);
  const files: Array<{ path: string; file: VirtualFile }> = [];
  const walk = (node: VirtualNode, path: string): void => {
    if (node.kind === 'file') {
      files.push({ path, file: node });
      return;
    }
    for (const entry of sortedEntries(node)) walk(entry.node, joinPath(path, entry.name));
  };
  if (start !== undefined) walk(start, under);
  return files;
}

/**
 * The whole tree as a flat record, for comparisons: directories map to `null`, files to their
 * content. Sorted by path.
 */
export function flattenTree(snapshot: VirtualSnapshot, under = ''): Record<string, string | null> {
  const flat: Record<string, string | null> = {};
  const walk = (node: VirtualNode, path: string): void => {
    if (path !== under) flat[path] = node.kind === 'file' ? node.content : null;
    if (node.kind === 'directory') {
      for (const entry of sortedEntries(node)) walk(entry.node, joinPath(path, entry.name));
    }
  };
  const start = nodeAt(snapshot, under);
  if (start !== undefined) walk(start, under);
  return flat;
}

/**
 * Files whose content differs between two snapshots: path → content in `after`, or `null` when
 * the file no longer exists there. Subtrees both snapshots share are skipped without a walk.
 */
export function diffSnapshots(before: VirtualSnapshot, after: VirtualSnapshot): VirtualDiff {
  const changed: Array<[string, string | null]> = [];
  const visit = (a: VirtualNode | undefined, b: VirtualNode | undefined, path: string): void => {
    if (a === b) return;
    if (a?.kind === 'file' && b?.kind === 'file') {
      if (a.content !== b.content) changed.push([path, b.content]);
      return;
    }
    const aEntries = a?.kind === 'directory' ? a.entries : undefined;
    const bEntries = b?.kind === 'directory' ? b.entries : undefined;
    if (a?.kind === 'file') changed.push([path, null]);
    if (b?.kind === 'file') changed.push([path, b.content]);
    const names = new Set([...(aEntries?.keys() ?? []), ...(bEntries?.keys() ?? [])]);
    for (const name of names) visit(aEntries?.get(name), bEntries?.get(name), joinPath(path, name));
  };
  visit(before.root, after.root, '');
  changed.sort((x, y) => byName(x[0], y[0]));
  return Object.fromEntries(changed);
}
