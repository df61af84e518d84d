import type { Dirent } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MissingOptionalDependencyError } from '../spec/errors.js';
import { type FilesystemToolName, filesystemCallKind } from './filesystem-tool-schemas.js';
import { McpToolSource, type ToolCallOutput, type ToolSource } from './mcp-tool-source.js';
import { ToolInfrastructureError } from './tool-infrastructure-error.js';
import { flattenTree, type VirtualSnapshot } from './virtual-file-system.js';
import type { Workspace } from './workspace.js';

/** The official server this mode spawns, at the version pacbench.md §5.1 pins. */
export const FILESYSTEM_SERVER_PACKAGE = '@modelcontextprotocol/server-filesystem';
const INSTALL_HINT = `npm install --save-dev ${FILESYSTEM_SERVER_PACKAGE}@2026.8.31`;

/** The server's entry script, found through Node's resolution from this module. */
export async function resolveFilesystemServerEntry(): Promise<string> {
  let manifestPath: string;
  try {
    manifestPath = createRequire(import.meta.url).resolve(`${FILESYSTEM_SERVER_PACKAGE}/package.json`);
  } catch (error) {
    throw new MissingOptionalDependencyError(
      `the mcp-server tools mode needs ${FILESYSTEM_SERVER_PACKAGE}; install it with: ${INSTALL_HINT}`,
      { cause: error },
    );
  }
  const manifest: unknown = JSON.parse(await readFile(manifestPath, 'utf8'));
  const bin = typeof manifest === 'object' && manifest !== null ? (manifest as { bin?: unknown }).bin : undefined;
  const relative =
    typeof bin === 'string' ? bin : typeof bin === 'object' && bin !== null ? Object.values(bin)[0] : undefined;
  if (typeof relative !== 'string') {
    throw new MissingOptionalDependencyError(
      `${FILESYSTEM_SERVER_PACKAGE} has no entry script; reinstall: ${INSTALL_HINT}`,
    );
  }
  return join(dirname(manifestPath), relative);
}

/** Options of {@link SpawnedFilesystemServer.start}. */
export type SpawnedFilesystemServerOptions = {
  workspace: Workspace;
  /** The server's entry script (default: {@link resolveFilesystemServerEntry}). */
  serverEntry?: string;
  /** Where the temporary workspace directory is made (default: the OS temp directory). */
  tempRoot?: string;
};

type DiskTree = Record<string, string | null>;

const STDERR_TAIL = 4096;

/**
 * The fidelity mode `mcp-server` (pacbench.md §5.3): the workspace is written to a temporary
 * directory (`<dir>/<agentId>` per agent, `<dir>/shared`) and the official filesystem server is
 * spawned once per agent over its two folders. Calls go to the real server; after each call the
 * directory is read back into the workspace's VFS (the calling agent becomes the last writer of
 * what changed), so snapshots and diffs work exactly as in the in-process mode. Symlinks and
 * other non-regular files on disk are never read back. Changes made to the VFS by others are
 * written out before the next call. {@link close} stops every server and removes the directory.
 */
export class SpawnedFilesystemServer {
  readonly workspace: Workspace;
  /** The temporary directory (its real path). */
  readonly directory: string;
  readonly #entry: string;
  readonly #sources: McpToolSource[] = [];
  readonly #transports: StdioClientTransport[] = [];
  #synced: VirtualSnapshot;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  private constructor(workspace: Workspace, directory: string, entry: string) {
    this.workspace = workspace;
    this.directory = directory;
    this.#entry = entry;
    this.#synced = workspace.snapshot();
  }

  /** Writes the workspace to a new temporary directory. No server runs until {@link openToolSource}. */
  static async start(options: SpawnedFilesystemServerOptions): Promise<SpawnedFilesystemServer> {
    const entry = options.serverEntry ?? (await resolveFilesystemServerEntry());
    const directory = await realpath(await mkdtemp(join(options.tempRoot ?? tmpdir(), 'confidant-workspace-')));
    const server = new SpawnedFilesystemServer(options.workspace, directory, entry);
    try {
      for (const root of options.workspace.vfs.roots) await mkdir(server.folderOf(root), { recursive: true });
      await server.#writeOut({}, flattenTree(options.workspace.snapshot()));
    } catch (error) {
      await rm(directory, { recursive: true, force: true });
      throw error;
    }
    return server;
  }

  /** The disk folder of a VFS root: `agents/agent_a` → `<dir>/agent_a`, `shared` → `<dir>/shared`. */
  folderOf(root: string): string {
    return join(this.directory, root.slice(root.lastIndexOf('/') + 1));
  }

  #diskPath(canonical: string): string | undefined {
    const root = this.workspace.vfs.roots.find((r) => canonical === r || canonical.startsWith(`${r}/`));
    return root === undefined ? undefined : join(this.folderOf(root), canonical.slice(root.length));
  }

  /** An agent's folders as the real server sees them: its own first, then the shared one. */
  foldersFor(agentId: string): Array<{ at: string; egress: boolean }> {
    return this.workspace.mountsFor(agentId).map((mount) => ({ at: this.folderOf(mount.root), egress: mount.egress }));
  }

  /**
   * Spawns the official server for one agent and returns its tools as a `ToolSource`. The server's
   * stderr (it logs there) is kept, not treated as failure, and quoted if the server dies.
   */
  async openToolSource(options: {
    agentId: string;
    namePrefix?: string;
    toolNames?: readonly FilesystemToolName[];
  }): Promise<ToolSource> {
    if (this.#closed) throw new ToolInfrastructureError('the spawned filesystem server was closed');
    const folders = this.foldersFor(options.agentId);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [this.#entry, ...folders.map((folder) => folder.at)],
      cwd: this.directory,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    const client = new Client({ name: 'confidant', version: '1.0.0' });
    try {
      await client.connect(transport);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new ToolInfrastructureError(`the filesystem server did not start: ${String(error)}\n${stderr}`, {
        cause: error,
      });
    }
    const source = new McpToolSource({
      client,
      classify: ({ name, input }) => filesystemCallKind({ name, input, folders }),
      ...(options.namePrefix === undefined ? {} : { namePrefix: options.namePrefix }),
      ...(options.toolNames === undefined ? {} : { toolNames: options.toolNames }),
    });
    this.#sources.push(source);
    this.#transports.push(transport);
    return {
      listTools: () => source.listTools(),
      callTool: (call) =>
        this.#exclusive(async (): Promise<ToolCallOutput> => {
          await this.#pushChanges();
          try {
            return await source.callTool(call);
          } catch (error) {
            if (error instanceof ToolInfrastructureError && stderr !== '') {
              throw new ToolInfrastructureError(`${error.message}\nserver stderr: ${stderr}`, {
                ...(error.toolName === undefined ? {} : { toolName: error.toolName }),
                cause: error,
              });
            }
            throw error;
          } finally {
            await this.#pull(options.agentId);
          }
        }),
      close: () => source.close(),
    };
  }

  /** Process ids of the servers still running (for resource accounting). */
  get processIds(): number[] {
    return this.#transports.flatMap((transport) => (transport.pid === null ? [] : [transport.pid]));
  }

  /** Reads the directory back into the VFS now, attributing changes to `writer`. */
  sync(options: { writer: string | null }): Promise<void> {
    return this.#exclusive(() => this.#pull(options.writer));
  }

  /** Stops every spawned server and removes the temporary directory. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.allSettled(this.#sources.map((source) => source.close()));
    await rm(this.directory, { recursive: true, force: true });
  }

  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Writes VFS changes made since the last sync (by anyone but the servers) to disk. */
  async #pushChanges(): Promise<void> {
    const current = this.workspace.snapshot();
    if (current.root === this.#synced.root) return;
    await this.#writeOut(flattenTree(this.#synced), flattenTree(current));
    this.#synced = current;
  }

  async #writeOut(before: DiskTree, after: DiskTree): Promise<void> {
    for (const [path, content] of Object.entries(before)) {
      const target = this.#diskPath(path);
      if (target !== undefined && (!(path in after) || (after[path] === null) !== (content === null))) {
        await rm(target, { recursive: true, force: true });
      }
    }
    for (const [path, content] of Object.entries(after)) {
      const target = this.#diskPath(path);
      if (target === undefined || before[path] === content) continue;
      if (content === null) await mkdir(target, { recursive: true });
      else {
        // Never write through whatever sits there now (a symlink would redirect the write).
        await rm(target, { force: true, recursive: true });
        await writeFile(target, content, 'utf8');
      }
    }
  }

  async #readDisk(folder: string, prefix: string, into: DiskTree): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const path = `${prefix}/${entry.name}`;
      if (entry.isDirectory()) {
        into[path] = null;
        await this.#readDisk(join(folder, entry.name), path, into);
      } else if (entry.isFile()) {
        into[path] = await readFile(join(folder, entry.name), 'utf8');
      }
    }
  }

  /** Makes the VFS equal to the disk, attributing changed files to `writer`. */
  async #pull(writer: string | null): Promise<void> {
    const vfs = this.workspace.vfs;
    const disk: DiskTree = {};
    for (const root of vfs.roots) await this.#readDisk(this.folderOf(root), root, disk);
    const current = flattenTree(vfs.snapshot());
    for (const [path, content] of Object.entries(current)) {
      if (vfs.roots.some((root) => root === path || root.startsWith(`${path}/`))) continue;
      const gone = !(path in disk) || (disk[path] === null) !== (content === null);
      if (gone && vfs.get(path) !== undefined) vfs.remove({ path });
    }
    for (const [path, content] of Object.entries(disk).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (content === null) {
        if (vfs.get(path) === undefined) vfs.createDirectory({ path });
        continue;
      }
      const existing = vfs.get(path);
      if (existing?.kind !== 'file' || existing.content !== content) vfs.writeFile({ path, content, writer });
    }
    this.#synced = vfs.snapshot();
  }
}
