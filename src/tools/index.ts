/**
 * tools/: the tools agents call. For PAC-Bench, the official MCP filesystem server's tools over a
 * per-sample in-memory workspace (served in-process) or the real server over a materialised temp
 * directory, behind one `ToolSource` interface; snapshots of the workspace and its final artifact.
 */
export {
  FILESYSTEM_TOOL_DESCRIPTIONS,
  FILESYSTEM_TOOL_KINDS,
  FILESYSTEM_TOOL_NAMES,
  FILESYSTEM_TOOLSETS,
  type FilesystemToolInput,
  type FilesystemToolName,
  filesystemCallKind,
  filesystemToolInputSchemas,
} from './filesystem-tool-schemas.js';
export { applyTextEdits, createFilesystemTools, formatSize } from './filesystem-tools.js';
export { expandBraces, globMatcher, MAX_BRACE_EXPANSIONS, matchesGlob } from './glob-match.js';
export { rootMoveRefusal } from './immovable-roots.js';
export {
  type InProcessFilesystemSourceOptions,
  type InProcessMcpConnection,
  openInProcessFilesystemSource,
  serveToolsInProcess,
} from './in-process-mcp-server.js';
export {
  flattenToolContent,
  McpToolSource,
  type McpToolSourceOptions,
  type ToolCallOutput,
  type ToolSource,
} from './mcp-tool-source.js';
export { type AllowedPath, resolveAllowedPath } from './resolve-allowed-path.js';
export {
  FILESYSTEM_SERVER_PACKAGE,
  resolveFilesystemServerEntry,
  SpawnedFilesystemServer,
  type SpawnedFilesystemServerOptions,
} from './spawned-filesystem-server.js';
export { ToolError } from './tool-error.js';
export { INFRASTRUCTURE_FAILURE_META, ToolInfrastructureError } from './tool-infrastructure-error.js';
export { DEFAULT_TOOL_TIMEOUT_MS, TOOL_LIMITS, toolLimitViolation } from './tool-limits.js';
export { createUnifiedDiff } from './unified-diff.js';
export {
  diffSnapshots,
  flattenTree,
  listFiles,
  nodeAt,
  sortedEntries,
  splitCanonicalPath,
  type VirtualDiff,
  type VirtualDirectory,
  type VirtualFile,
  VirtualFileSystem,
  VirtualFileSystemError,
  type VirtualFileSystemErrorCode,
  type VirtualLookup,
  type VirtualNode,
  type VirtualSnapshot,
} from './virtual-file-system.js';
export {
  AGENT_FOLDER,
  SHARED_FOLDER,
  SHARED_ROOT,
  type ViewPath,
  Workspace,
  type WorkspaceMount,
  WorkspaceView,
} from './workspace.js';
export {
  renderSharedArtifact,
  type SharedArtifact,
  WorkspaceSnapshots,
  type WorkspaceTurnSnapshot,
} from './workspace-snapshots.js';
export {
  type OpenWorkspaceToolsOptions,
  openWorkspaceTools,
  type WorkspaceTools,
  type WorkspaceToolsMode,
} from './workspace-tools.js';
