import { ConfidantError } from '../spec/errors.js';

/**
 * The tool machinery itself failed: an MCP server crashed or closed, a protocol error, a bug in a
 * tool. Unlike a `ToolError` this is not the model's doing, so it is not shown to the model: the
 * caller may retry the call (`toolRetries`) and otherwise ends the sample as an error, counted as
 * a tool-infrastructure failure (pacbench.md §4, §9).
 */
export class ToolInfrastructureError extends ConfidantError {
  /** The tool whose call failed, when known. */
  readonly toolName: string | undefined;

  constructor(message: string, options: { toolName?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.name = 'ToolInfrastructureError';
    this.toolName = options.toolName;
  }
}

/**
 * `_meta` key of a tool result by which our in-process MCP server reports an operator failure,
 * so that the client side can raise a {@link ToolInfrastructureError} instead of showing it to
 * the model (MCP itself only knows "tool result with isError").
 */
export const INFRASTRUCTURE_FAILURE_META = 'confidant/infrastructure-failure';
