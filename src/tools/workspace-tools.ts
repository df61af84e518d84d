import { PlanValidationError } from '../spec/errors.js';
import type { FilesystemToolName } from './filesystem-tool-schemas.js';
import type { ToolSource } from './mcp-tool-source.js';
import type { SpawnedFilesystemServer } from './spawned-filesystem-server.js';
import type { Workspace } from './workspace.js';

/** `vfs`: in-process tools over the VFS (default); `mcp-server`: the spawned official server. */
export type WorkspaceToolsMode = 'vfs' | 'mcp-server';

/** Every agent's filesystem tools for one sample, in one of the two modes. */
export type WorkspaceTools = {
  readonly mode: WorkspaceToolsMode;
  readonly workspace: Workspace;
  /** One agent's tools; throws for an agent the workspace does not have. */
  sourceFor(agentId: string): ToolSource;
  /** Process ids of spawned servers still running (`mcp-server` mode), for resource accounting. */
  readonly processIds: number[];
  /** Closes every source; in `mcp-server` mode also stops the servers and removes the temp directory. */
  close(): Promise<void>;
};

/** Options of {@link openWorkspaceTools}. */
export type OpenWorkspaceToolsOptions = {
  workspace: Workspace;
  mode: WorkspaceToolsMode;
  /** Prefix on every tool name the model sees, e.g. `filesystem_` (pacbench.md §5.1). */
  namePrefix?: string;
  /** The tools offered, e.g. `FILESYSTEM_TOOLSETS.upstream` (default: all 14). */
  toolNames?: readonly FilesystemToolName[];
  /** `mcp-server` mode: the server's entry script (default: resolved from node_modules). */
  serverEntry?: string;
  /** `mcp-server` mode: where the temporary directory is made (default: the OS temp directory). */
  tempRoot?: string;
  /**
   * Time budget of one tool call in ms (default `DEFAULT_TOOL_TIMEOUT_MS`): an overrun becomes an
   * error result the agent sees (and a stuck server is replaced). Both modes also apply `TOOL_LIMITS`.
   */
  timeoutMs?: number;
};

/**
 * Opens a tool source for every agent of the workspace. Both modes offer the same tool names,
 * schemas and result texts and keep the workspace's VFS current after every call, so the
 * simulator and the snapshots do not depend on the mode. Only the paths shown differ: the VFS
 * shows `/workspace/agent` and `/workspace/shared`, the real server its temp directory.
 */
export async function openWorkspaceTools(options: OpenWorkspaceToolsOptions): Promise<WorkspaceTools> {
  const { workspace, mode } = options;
  const naming = {
    ...(options.namePrefix === undefined ? {} : { namePrefix: options.namePrefix }),
    ...(options.toolNames === undefined ? {} : { toolNames: options.toolNames }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  const sources = new Map<string, ToolSource>();
  let server: SpawnedFilesystemServer | undefined;
  const close = async (): Promise<void> => {
    await Promise.allSettled([...sources.values()].map((source) => source.close()));
    await server?.close();
  };
  try {
    // The MCP SDK is loaded on first use, not when a suite that may use it is registered.
    const { openInProcessFilesystemSource } = await import('./in-process-mcp-server.js');
    if (mode === 'mcp-server') {
      const { SpawnedFilesystemServer } = await import('./spawned-filesystem-server.js');
      server = await SpawnedFilesystemServer.start({
        workspace,
        ...(options.serverEntry === undefined ? {} : { serverEntry: options.serverEntry }),
        ...(options.tempRoot === undefined ? {} : { tempRoot: options.tempRoot }),
      });
    }
    const spawned = server;
    const opened = await Promise.allSettled(
      workspace.agentIds.map(async (agentId) => {
        const source =
          spawned === undefined
            ? await openInProcessFilesystemSource({ workspace, agentId, ...naming })
            : await spawned.openToolSource({ agentId, ...naming });
        sources.set(agentId, source);
      }),
    );
    const failed = opened.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  } catch (error) {
    await close();
    throw error;
  }
  return {
    mode,
    workspace,
    sourceFor(agentId) {
      const source = sources.get(agentId);
      if (source === undefined) {
        throw new PlanValidationError(
          `unknown agent '${agentId}'; this workspace has ${workspace.agentIds.join(', ')}`,
        );
      }
      return source;
    },
    get processIds() {
      return server?.processIds ?? [];
    },
    close,
  };
}
