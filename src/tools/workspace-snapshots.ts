import { diffSnapshots, listFiles, type VirtualDiff, type VirtualSnapshot } from './virtual-file-system.js';
import { SHARED_ROOT, type Workspace } from './workspace.js';

/** One line of `workspace-snapshots.jsonl` (pacbench.md §5.4): files changed by a turn. */
export type WorkspaceTurnSnapshot = {
  turn: number;
  /** Path → content after the turn, or `null` when the file was deleted. */
  changed: VirtualDiff;
};

/** The shared folder flattened for the judges, with per-file attribution. */
export type SharedArtifact = {
  /** A tree listing, then every file under a path header. */
  text: string;
  files: Array<{ path: string; bytes: number; lastWriter: string | null }>;
};

/** Content with a NUL character is treated as binary and not shown. */
function isBinary(content: string): boolean {
  return content.includes('\0');
}

/**
 * Flattens one folder of a snapshot (default: the shared root) for judges: first a tree listing
 * (`shared/`, then entries indented two spaces per level, folders ending in `/`), then each file as
 * a `--- <path> ---` header and its content; binary content shows as `[binary file, <n> bytes]`.
 * Paths are workspace paths such as `shared/report.md`.
 */
export function renderSharedArtifact(options: { snapshot: VirtualSnapshot; root?: string }): SharedArtifact {
  const root = options.root ?? SHARED_ROOT;
  const files = listFiles(options.snapshot, root);
  const listing = [`${root}/`];
  const seenFolders = new Set<string>();
  for (const { path } of files) {
    const parts = path.slice(root.length + 1).split('/');
    for (let depth = 1; depth < parts.length; depth++) {
      const folder = parts.slice(0, depth).join('/');
      if (seenFolders.has(folder)) continue;
      seenFolders.add(folder);
      listing.push(`${'  '.repeat(depth)}${parts[depth - 1]}/`);
    }
    listing.push(`${'  '.repeat(parts.length)}${parts[parts.length - 1]}`);
  }
  if (files.length === 0) listing.push('  (empty)');
  const sections = files.map(({ path, file }) => {
    const body = isBinary(file.content) ? `[binary file, ${file.size} bytes]` : file.content;
    return `--- ${path} ---\n${body}`;
  });
  return {
    text: [listing.join('\n'), ...sections].join('\n\n'),
    files: files.map(({ path, file }) => ({ path, bytes: file.size, lastWriter: file.lastWriter })),
  };
}

/**
 * Per-turn snapshots of a whole workspace (every private folder and the shared one). Created at
 * reset, it keeps the starting state; {@link take} after each turn records what changed since the
 * previous snapshot, and {@link finalArtifact} renders the shared folder of the latest one.
 * Snapshots are O(1) and diffs skip unchanged subtrees, so this is cheap on every turn. In the
 * `mcp-server` mode the VFS is current after every tool call, so no extra sync is needed.
 */
export class WorkspaceSnapshots {
  readonly #workspace: Workspace;
  readonly #turns: WorkspaceTurnSnapshot[] = [];
  #latest: VirtualSnapshot;

  constructor(options: { workspace: Workspace }) {
    this.#workspace = options.workspace;
    this.#latest = options.workspace.snapshot();
  }

  /** Snapshots the workspace after `turn` and returns (and keeps) the turn's changes. */
  take(options: { turn: number }): WorkspaceTurnSnapshot {
    const next = this.#workspace.snapshot();
    const record = { turn: options.turn, changed: diffSnapshots(this.#latest, next) };
    this.#latest = next;
    this.#turns.push(record);
    return record;
  }

  /** Every turn recorded so far, in order: the lines of `workspace-snapshots.jsonl`. */
  get turns(): readonly WorkspaceTurnSnapshot[] {
    return this.#turns;
  }

  /** The latest snapshot (the starting state before any {@link take}). */
  get latest(): VirtualSnapshot {
    return this.#latest;
  }

  /** The final artifact: the shared folder of the latest snapshot. */
  finalArtifact(): SharedArtifact {
    return renderSharedArtifact({ snapshot: this.#latest });
  }
}
