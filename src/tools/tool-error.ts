import type { ToolOutput } from '../spec/tool.js';

const MARKER = Symbol.for('confidant.tool-error');

/**
 * A mistake by the model in a tool call: a path outside its folders, a missing file, bad
 * arguments. It is the only error that goes back to the model, as a tool result with
 * `isError: true`; the model may correct itself and the sample goes on. It is deliberately not a
 * `ConfidantError`: operator errors end the sample, tool errors are part of the transcript.
 * The message is what the model reads, so it names the problem and never carries file content
 * the caller may not see.
 */
export class ToolError extends Error {
  readonly [MARKER] = true;

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolError';
  }

  /** Cross-realm check (a global symbol marker), like `ConfidantError.isInstance`. */
  static isInstance(value: unknown): value is ToolError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  /** The tool result the model sees for this error. */
  toOutput(): ToolOutput {
    return { content: this.message, isError: true };
  }
}
