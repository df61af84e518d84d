import { type ZodType, z } from 'zod';

/**
 * What a tool call does, for privacy accounting. `egress` is the kind that matters: it moves
 * content where someone else can see it (a write into a shared folder, a message, an upload).
 * `write` changes only the caller's own state, `read` changes nothing, `think` is a scratchpad.
 */
export const toolKindSchema = z.enum(['read', 'write', 'egress', 'think']);
/** One of {@link toolKindSchema}'s values. */
export type ToolKind = z.infer<typeof toolKindSchema>;

/**
 * A tool result as the model sees it: one text. `isError: true` marks a model mistake reported
 * back to the model (a `ToolError`); operator failures never become a `ToolOutput`.
 */
export const toolOutputSchema = z.object({
  content: z.string(),
  isError: z.boolean().optional(),
});
/** See {@link toolOutputSchema}. */
export type ToolOutput = z.infer<typeof toolOutputSchema>;

/** Who is calling a tool, and when. Tools attribute their effects (e.g. a file's last writer) to it. */
export type ToolContext = {
  /** The participant (agent seat) making the call, e.g. `agent_a`. */
  participantId: string;
  /** Global 1-based turn of the conversation, when the call happens inside one. */
  turn?: number;
  /** Aborts a long-running call when the sample is cancelled. */
  signal?: AbortSignal;
};

/**
 * A tool the model may call. `inputSchema` validates (and defaults) the model's arguments before
 * `execute` runs; `execute` reports model mistakes by throwing a `ToolError` (tools/tool-error.ts)
 * and anything else it throws ends the sample as an error.
 *
 * `kind` is the tool's declared kind; `kindOf`, when present, gives the kind of one concrete call,
 * because the same tool can be a private `write` or an `egress` depending on where it writes.
 */
export type Tool<Input = unknown> = {
  name: string;
  description: string;
  inputSchema: ZodType<Input>;
  kind: ToolKind;
  kindOf?(input: Input): ToolKind;
  execute(options: { input: Input; context: ToolContext }): Promise<ToolOutput>;
};
