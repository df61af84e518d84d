import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Tool, ToolContext } from '../spec/tool.js';
import type { FilesystemToolName } from './filesystem-tool-schemas.js';
import { filesystemCallKind } from './filesystem-tool-schemas.js';
import { createFilesystemTools } from './filesystem-tools.js';
import { rootMoveRefusal } from './immovable-roots.js';
import { McpToolSource } from './mcp-tool-source.js';
import { ToolError } from './tool-error.js';
import { INFRASTRUCTURE_FAILURE_META } from './tool-infrastructure-error.js';
import { toolLimitViolation } from './tool-limits.js';
import type { Workspace } from './workspace.js';

/** A connected in-process MCP pair. */
export type InProcessMcpConnection = {
  client: Client;
  server: McpServer;
  /** Closes both ends. */
  close(): Promise<void>;
};

function textResult(text: string, isError: boolean): CallToolResult {
  return isError ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }] };
}

/**
 * Serves `tools` to one caller through `McpServer` and `InMemoryTransport.createLinkedPair()`:
 * real MCP messages (argument validation, tool listing, error results) with no process or socket.
 * Every call runs with `context` (plus the request's abort signal). A `ToolError` becomes an
 * error result for the model; any other exception becomes an error result tagged with
 * `INFRASTRUCTURE_FAILURE_META`, which `McpToolSource` turns back into a thrown
 * `ToolInfrastructureError`.
 */
export async function serveToolsInProcess(options: {
  tools: readonly Tool[];
  context: ToolContext;
  serverInfo?: { name: string; version: string };
}): Promise<InProcessMcpConnection> {
  const server = new McpServer(options.serverInfo ?? { name: 'confidant-tools', version: '1.0.0' });
  for (const tool of options.tools) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.inputSchema },
      async (input: unknown, extra): Promise<CallToolResult> => {
        try {
          const output = await tool.execute({ input, context: { ...options.context, signal: extra.signal } });
          return textResult(output.content, output.isError === true);
        } catch (error) {
          if (ToolError.isInstance(error)) return textResult(error.message, true);
          const failure = { name: error instanceof Error ? error.name : 'Error', message: String(error) };
          return {
            ...textResult('the tool failed inside the harness', true),
            _meta: { [INFRASTRUCTURE_FAILURE_META]: failure },
          };
        }
      },
    );
  }
  const client = new Client({ name: 'confidant', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    server,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** Options of {@link openInProcessFilesystemSource}. */
export type InProcessFilesystemSourceOptions = {
  workspace: Workspace;
  agentId: string;
  /** Prefix the model sees on tool names, e.g. `filesystem_`. */
  namePrefix?: string;
  /** The tools offered (default: all 14). */
  toolNames?: readonly FilesystemToolName[];
  /** Time budget of one call in ms (default `DEFAULT_TOOL_TIMEOUT_MS`). */
  timeoutMs?: number;
};

/**
 * The default `vfs` mode (pacbench.md §5.3): one agent's filesystem tools over the sample's
 * in-memory workspace, served in-process, as a `ToolSource`. The agent sees its private folder at
 * `/workspace/agent` and the shared one at `/workspace/shared`.
 */
export async function openInProcessFilesystemSource(options: InProcessFilesystemSourceOptions): Promise<McpToolSource> {
  const view = options.workspace.viewFor(options.agentId);
  const connection = await serveToolsInProcess({
    tools: createFilesystemTools({ view }),
    context: { participantId: options.agentId },
    serverInfo: { name: 'confidant-filesystem', version: '1.0.0' },
  });
  return new McpToolSource({
    client: connection.client,
    classify: ({ name, input }) => filesystemCallKind({ name, input, folders: view.mounts }),
    ...(options.namePrefix === undefined ? {} : { namePrefix: options.namePrefix }),
    ...(options.toolNames === undefined ? {} : { toolNames: options.toolNames }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    refuse: ({ name, input }) =>
      rootMoveRefusal({ name, input, folders: view.mounts }) ??
      toolLimitViolation({ name, input, vfs: options.workspace.vfs }),
    onClose: () => connection.server.close(),
  });
}
