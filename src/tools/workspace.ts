import { PlanValidationError } from '../spec/errors.js';
import { resolveAllowedPath } from './resolve-allowed-path.js';
import { ToolError } from './tool-error.js';
import { VirtualFileSystem, type VirtualSnapshot } from './virtual-file-system.js';

/** Where an agent sees its own private folder (pacbench.md §5.2). */
export const AGENT_FOLDER = '/workspace/agent';
/** Where every agent sees the shared folder. */
export const SHARED_FOLDER = '/workspace/shared';
/** The VFS root of the shared folder. */
export const SHARED_ROOT = 'shared';

/** One folder a participant can see: the path it is shown at and the VFS root behind it. */
export type WorkspaceMount = {
  /** Absolute, normalised path the participant uses, e.g. `/workspace/agent`. */
  at: string;
  /** Canonical VFS root, e.g. `agents/agent_a`. */
  root: string;
  /** Whether writing here makes content visible to others (the shared folder). */
  egress: boolean;
};

/** A path a participant may use: what it is shown as and where it lives in the VFS. */
export type ViewPath = { visible: string; canonical: string; mount: WorkspaceMount };

const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/**
 * One participant's window onto the workspace: its mounts and nothing else. Every path a tool
 * receives goes through {@link resolve}, so another agent's private folder, the workspace top and
 * anything outside it are unreachable, however the path is spelled.
 */
export class WorkspaceView {
  readonly vfs: VirtualFileSystem;
  readonly participantId: string;
  readonly mounts: readonly WorkspaceMount[];

  constructor(options: { vfs: VirtualFileSystem; participantId: string; mounts: readonly WorkspaceMount[] }) {
    this.vfs = options.vfs;
    this.participantId = options.participantId;
    this.mounts = [...options.mounts];
  }

  /** The folders this participant may use, in resolution order (its own first). */
  get allowedDirectories(): string[] {
    return this.mounts.map((mount) => mount.at);
  }

  /**
   * Resolves a path the model typed (see `resolveAllowedPath`). Like `realpath` on a disk, a path
   * that runs through a file fails with ENOTDIR; a missing path is fine, the tool decides.
   */
  resolve(requested: string): ViewPath {
    const allowed = resolveAllowedPath({ requested, directories: this.allowedDirectories });
    const mount = this.mounts[allowed.directoryIndex]!;
    const canonical = allowed.relative === '' ? mount.root : `${mount.root}/${allowed.relative}`;
    if (this.vfs.lookup(canonical).status === 'through-file') {
      throw new ToolError(`ENOTDIR: not a directory, realpath '${allowed.absolute}'`);
    }
    return { visible: allowed.absolute, canonical, mount };
  }

  /** The path of an entry inside a directory this view already resolved. */
  child(parent: ViewPath, name: string): ViewPath {
    return {
      visible: parent.visible === '/' ? `/${name}` : `${parent.visible}/${name}`,
      canonical: `${parent.canonical}/${name}`,
      mount: parent.mount,
    };
  }
}

/**
 * The file space of one PAC sample (pacbench.md §5.2): a private root `agents/<id>` per agent and
 * one `shared` root, in a single {@link VirtualFileSystem}. Each agent sees its private root at
 * `/workspace/agent` and the shared root at `/workspace/shared`, and nothing else.
 */
export class Workspace {
  readonly vfs: VirtualFileSystem;
  readonly agentIds: readonly string[];

  private constructor(vfs: VirtualFileSystem, agentIds: readonly string[]) {
    this.vfs = vfs;
    this.agentIds = agentIds;
  }

  /**
   * An empty workspace for these agents. Ids become folder names in the fidelity mode, so they
   * must be simple names (letters, digits, `_`, `-`), unique, and not `shared`.
   */
  static create(options: { agentIds: readonly string[]; now?: () => number }): Workspace {
    const { agentIds } = options;
    if (agentIds.length === 0) throw new PlanValidationError('a workspace needs at least one agent');
    for (const id of agentIds) {
      if (!AGENT_ID.test(id) || id === SHARED_ROOT) {
        throw new PlanValidationError(
          `agent id '${id}' cannot name a workspace folder: use letters, digits, '_' or '-', and not '${SHARED_ROOT}'`,
        );
      }
    }
    if (new Set(agentIds).size !== agentIds.length) {
      throw new PlanValidationError(`agent ids must be unique, got ${agentIds.join(', ')}`);
    }
    const roots = [...agentIds.map((id) => `agents/${id}`), SHARED_ROOT];
    const vfs = new VirtualFileSystem(options.now === undefined ? { roots } : { roots, now: options.now });
    return new Workspace(vfs, [...agentIds]);
  }

  /** The VFS root of an agent's private folder. */
  privateRoot(agentId: string): string {
    if (!this.agentIds.includes(agentId)) {
      throw new PlanValidationError(`unknown agent '${agentId}'; this workspace has ${this.agentIds.join(', ')}`);
    }
    return `agents/${agentId}`;
  }

  /** An agent's mounts: its private folder first, then the shared one. */
  mountsFor(agentId: string): WorkspaceMount[] {
    return [
      { at: AGENT_FOLDER, root: this.privateRoot(agentId), egress: false },
      { at: SHARED_FOLDER, root: SHARED_ROOT, egress: true },
    ];
  }

  /** What one agent can see. */
  viewFor(agentId: string): WorkspaceView {
    return new WorkspaceView({ vfs: this.vfs, participantId: agentId, mounts: this.mountsFor(agentId) });
  }

  /** An O(1) snapshot of every folder. */
  snapshot(): VirtualSnapshot {
    return this.vfs.snapshot();
  }
}
