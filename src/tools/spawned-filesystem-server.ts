import type { Dirent } from 'node:fs';
import { mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MissingOptionalDependencyError } from '../spec/errors.js';
import { makeDirectory } from '../spec/make-directory.js';
import { FILESYSTEM_TOOL_KINDS, type FilesystemToolName, filesystemCallKind } from './filesystem-tool-schemas.js';
import { rootMoveRefusal } from './immovable-roots.js';
import { McpToolSource, type ToolCallOutput, type ToolSource } from './mcp-tool-source.js';
import { removeOnExit, removeStaleWorkspaces, workspaceDirPrefix } from './stale-workspaces.js';
import { ToolInfrastructureError } from './tool-infrastructure-error.js';
import { toolLimitViolation } from './tool-limits.js';
import { flattenTree, type VirtualSnapshot } from './virtual-file-system.js';
import type { Workspace } from './workspace.js';

/** Temp roots already swept for stale workspace directories by this process. */
const cleanedTempRoots = new Set<string>();

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

type SpawnedConnection = {
  transport: StdioClientTransport;
  source: McpToolSource;
  stderr: () => string;
};

/** Largest message our client accepts from a server (a result), in bytes. */
const CLIENT_MAX_BUFFER = 256 * 1024 * 1024;

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
  readonly #readCache = new Map<string, { size: number; mtimeMs: number; content: string }>();
  #closed = false;
  #forget: () => void = () => undefined;

  private constructor(workspace: Workspace, directory: string, entry: string) {
    this.workspace = workspace;
    this.directory = directory;
    this.#entry = entry;
    this.#synced = workspace.snapshot();
  }

  /** Writes the workspace to a new temporary directory. No server runs until {@link openToolSource}. */
  static async start(options: SpawnedFilesystemServerOptions): Promise<SpawnedFilesystemServer> {
    const entry = options.serverEntry ?? (await resolveFilesystemServerEntry());
    const tempRoot = options.tempRoot ?? tmpdir();
    // Once per process and temp root: directories of runs that were killed (kill -9) are removed.
    if (!cleanedTempRoots.has(tempRoot)) {
      cleanedTempRoots.add(tempRoot);
      await removeStaleWorkspaces({ tempRoot });
    }
    const directory = await realpath(await mkdtemp(join(tempRoot, workspaceDirPrefix())));
    const server = new SpawnedFilesystemServer(options.workspace, directory, entry);
    server.#forget = removeOnExit(directory);
    try {
      for (const root of options.workspace.vfs.roots) await makeDirectory(server.folderOf(root));
      await server.#writeOut({}, flattenTree(options.workspace.snapshot()));
    } catch (error) {
      await rm(directory, { recursive: true, force: true });
      server.#forget();
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
    /** Time budget of one call in ms (default `DEFAULT_TOOL_TIMEOUT_MS`). */
    timeoutMs?: number;
  }): Promise<ToolSource> {
    if (this.#closed) throw new ToolInfrastructureError('the spawned filesystem server was closed');
    // A server that overran a call's budget may be stuck in it (a backtracking glob): it is killed
    // and the next call starts a fresh one over the same folders.
    let restarting: Promise<void> | undefined;
    const restart = async (): Promise<void> => {
      const stuck = connection;
      if (stuck.transport.pid !== null) {
        try {
          process.kill(stuck.transport.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      await stuck.source.close().catch(() => undefined);
      restarting = (async () => {
        connection = await this.#connect(options, restart);
      })();
    };
    let connection = await this.#connect(options, restart);
    return {
      listTools: () => connection.source.listTools(),
      callTool: (call) =>
        this.#exclusive(async (): Promise<ToolCallOutput> => {
          if (restarting !== undefined) {
            await restarting;
            restarting = undefined;
          }
          const { source, stderr } = connection;
          await this.#pushChanges();
          const writes =
            FILESYSTEM_TOOL_KINDS[call.name.slice((options.namePrefix ?? '').length) as FilesystemToolName];
          try {
            return await source.callTool(call);
          } catch (error) {
            if (error instanceof ToolInfrastructureError && stderr() !== '') {
              throw new ToolInfrastructureError(`${error.message}\nserver stderr: ${stderr()}`, {
                ...(error.toolName === undefined ? {} : { toolName: error.toolName }),
                cause: error,
              });
            }
            throw error;
          } finally {
            // Only a write can change the disk: reads leave the VFS as it is.
            if (writes !== 'read') await this.#pull(options.agentId);
          }
        }),
      close: async () => {
        await restarting?.catch(() => undefined);
        await connection.source.close();
      },
    };
  }

  /** Spawns one server for an agent; `onTimeout` runs when one of its calls overruns. */
  async #connect(
    options: { agentId: string; namePrefix?: string; toolNames?: readonly FilesystemToolName[]; timeoutMs?: number },
    onTimeout: () => Promise<void>,
  ): Promise<SpawnedConnection> {
    const folders = this.foldersFor(options.agentId);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [this.#entry, ...folders.map((folder) => folder.at)],
      cwd: this.directory,
      stderr: 'pipe',
      // Results may be large (a read of a file at the size limit); the server's own limit on what
      // it accepts is what TOOL_LIMITS keeps calls under.
      maxBufferSize: CLIENT_MAX_BUFFER,
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
    this.#transports.push(transport);
    const source = this.#source(client, options, onTimeout);
    this.#sources.push(source);
    return { transport, source, stderr: () => stderr };
  }

  #source(
    client: Client,
    options: { agentId: string; namePrefix?: string; toolNames?: readonly FilesystemToolName[]; timeoutMs?: number },
    onTimeout: () => Promise<void>,
  ): McpToolSource {
    const folders = this.foldersFor(options.agentId);
    return new McpToolSource({
      client,
      classify: ({ name, input }) => filesystemCallKind({ name, input, folders }),
      refuse: ({ name, input }) =>
        rootMoveRefusal({ name, input, folders }) ?? toolLimitViolation({ name, input, vfs: this.workspace.vfs }),
      ...(options.namePrefix === undefined ? {} : { namePrefix: options.namePrefix }),
      ...(options.toolNames === undefined ? {} : { toolNames: options.toolNames }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      onTimeout,
    });
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
    this.#forget();
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
      if (content === null) await makeDirectory(target);
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
        // Unchanged files (same size and mtime as last read) are not read again.
        const file = join(folder, entry.name);
        const info = await stat(file);
        const known = this.#readCache.get(file);
        if (known !== undefined && known.size === info.size && known.mtimeMs === info.mtimeMs) {
          into[path] = known.content;
        } else {
          const content = await readFile(file, 'utf8');
          this.#readCache.set(file, { size: info.size, mtimeMs: info.mtimeMs, content });
          into[path] = content;
        }
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
