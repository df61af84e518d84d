import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDescriptor } from '../spec/chat-model.js';
import type { ToolKind, ToolOutput } from '../spec/tool.js';
import { INFRASTRUCTURE_FAILURE_META, ToolInfrastructureError } from './tool-infrastructure-error.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from './tool-limits.js';

/** A tool result for the model plus what the harness needs to know about the call. */
export type ToolCallOutput = ToolOutput & {
  isError: boolean;
  /** The call's kind as requested (`egress` for a write into a shared folder). */
  kind: ToolKind;
};

/**
 * Where a participant's tools come from: the interface a simulator uses, whatever serves the
 * tools. `callTool` answers model mistakes (unknown tool, bad arguments, a path it may not use)
 * with an `isError` output, and throws a `ToolInfrastructureError` when the machinery fails.
 */
export type ToolSource = {
  /** The tools as the model sees them: name, description and JSON schema of the input. */
  listTools(): Promise<ToolDescriptor[]>;
  /** Calls one tool by the name {@link listTools} gave it. */
  callTool(options: { name: string; input: unknown; signal?: AbortSignal }): Promise<ToolCallOutput>;
  /** Releases the connection (and whatever serves it). Safe to call twice. */
  close(): Promise<void>;
};

/** Options of {@link McpToolSource}. */
export type McpToolSourceOptions = {
  /** A connected MCP client. The source owns it and closes it. */
  client: Client;
  /** Kind of one call, by the server's (unprefixed) tool name. */
  classify: (call: { name: string; input: unknown }) => ToolKind;
  /** Prefix the model sees on every name, e.g. `filesystem_` (pacbench.md §5.1). */
  namePrefix?: string;
  /** Only these server tools are offered; others are refused like unknown tools. */
  toolNames?: readonly string[];
  /** Runs after the client closed, e.g. to remove what served it. */
  onClose?: () => Promise<void>;
  /**
   * Why a call may not run (e.g. it breaks `TOOL_LIMITS`), by the server's tool name: the reason
   * becomes an error result for the model and the server is not called.
   */
  refuse?: (call: { name: string; input: Record<string, unknown> }) => string | undefined;
  /**
   * Time budget of one call in milliseconds (default `DEFAULT_TOOL_TIMEOUT_MS`). A call past it is
   * cancelled and answered with an error result the model sees; `onTimeout` runs first.
   */
  timeoutMs?: number;
  /** Runs when a call overran its budget, e.g. to stop a server stuck in it. */
  onTimeout?: () => Promise<void>;
};

type ContentBlock = {
  type: string;
  text?: unknown;
  data?: unknown;
  mimeType?: unknown;
  uri?: unknown;
  resource?: { text?: unknown; blob?: unknown; mimeType?: unknown; uri?: unknown };
};

function dataUri(mimeType: unknown, base64: unknown): string {
  return `data:${typeof mimeType === 'string' ? mimeType : 'application/octet-stream'};base64,${String(base64)}`;
}

/** One text for the model from MCP content blocks; binary blocks become `data:` URIs. */
export function flattenToolContent(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((block) => {
      if (block.type === 'text') return String(block.text ?? '');
      if (block.type === 'image' || block.type === 'audio') return dataUri(block.mimeType, block.data);
      if (block.type === 'resource' && block.resource !== undefined) {
        const { resource } = block;
        return typeof resource.text === 'string' ? resource.text : dataUri(resource.mimeType, resource.blob);
      }
      if (block.type === 'resource_link') return String(block.uri ?? '');
      return `[${block.type} content]`;
    })
    .join('\n');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A {@link ToolSource} over an MCP client: lists the server's tools (once, then cached) and calls
 * them, turning results into one text. The same class fronts the in-process server and the
 * spawned official server, so a simulator cannot tell them apart except by paths.
 */
export class McpToolSource implements ToolSource {
  readonly #client: Client;
  readonly #options: McpToolSourceOptions;
  #tools: Promise<ToolDescriptor[]> | undefined;
  #closed: Promise<void> | undefined;

  constructor(options: McpToolSourceOptions) {
    this.#client = options.client;
    this.#options = options;
  }

  get #prefix(): string {
    return this.#options.namePrefix ?? '';
  }

  listTools(): Promise<ToolDescriptor[]> {
    this.#tools ??= this.#fetchTools();
    return this.#tools;
  }

  async #fetchTools(): Promise<ToolDescriptor[]> {
    const wanted = this.#options.toolNames;
    const tools: ToolDescriptor[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await this.#client.listTools(cursor === undefined ? {} : { cursor });
        for (const tool of page.tools) {
          if (wanted !== undefined && !wanted.includes(tool.name)) continue;
          tools.push({
            name: this.#prefix + tool.name,
            description: tool.description ?? '',
            inputSchema: tool.inputSchema,
          });
        }
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    } catch (error) {
      this.#tools = undefined;
      throw new ToolInfrastructureError(`listing MCP tools failed: ${String(error)}`, { cause: error });
    }
    return tools;
  }

  async callTool(options: { name: string; input: unknown; signal?: AbortSignal }): Promise<ToolCallOutput> {
    const { name, input, signal } = options;
    const offered = await this.listTools();
    if (!offered.some((tool) => tool.name === name)) {
      const names = offered.map((tool) => tool.name).join(', ');
      return { content: `Tool ${name} is not available. Available tools: ${names}`, isError: true, kind: 'read' };
    }
    const serverName = name.slice(this.#prefix.length);
    const args = input === undefined || input === null ? {} : input;
    if (!isPlainObject(args)) {
      return {
        content: `Invalid arguments for tool ${name}: expected a JSON object`,
        isError: true,
        kind: 'read',
      };
    }
    const kind = this.#options.classify({ name: serverName, input: args });
    const refusal = this.#options.refuse?.({ name: serverName, input: args });
    if (refusal !== undefined) return { content: refusal, isError: true, kind };
    const timeout = this.#options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    let result: Awaited<ReturnType<Client['callTool']>>;
    try {
      result = await this.#client.callTool({ name: serverName, arguments: args }, undefined, {
        timeout,
        maxTotalTimeout: timeout,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      // An abort of the caller's signal also surfaces as RequestTimeout; only a real overrun is the model's.
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout && signal?.aborted !== true) {
        await this.#options.onTimeout?.();
        return {
          content: `Tool ${name} did not finish within its time budget of ${timeout} ms and was stopped`,
          isError: true,
          kind,
        };
      }
      throw new ToolInfrastructureError(`MCP call to ${serverName} failed: ${String(error)}`, {
        toolName: serverName,
        cause: error,
      });
    }
    const failure = result._meta?.[INFRASTRUCTURE_FAILURE_META];
    if (failure !== undefined) {
      const detail = isPlainObject(failure) ? String(failure.message) : String(failure);
      throw new ToolInfrastructureError(`tool ${serverName} failed inside the harness: ${detail}`, {
        toolName: serverName,
      });
    }
    const blocks = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
    return { content: flattenToolContent(blocks), isError: result.isError === true, kind };
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      try {
        await this.#client.close();
      } finally {
        await this.#options.onClose?.();
      }
    })();
    return this.#closed;
  }
}
