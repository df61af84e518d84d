import { z } from 'zod';

/** A tool call requested by a model. `input` is the parsed JSON arguments. */
export const toolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
});
export type ToolCall = z.infer<typeof toolCallSchema>;

/** One chat message, provider-neutral. Tool results carry the id of the call they answer. */
export const messageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string(), name: z.string().optional() }),
  z.object({
    role: z.literal('assistant'),
    content: z.string(),
    toolCalls: z.array(toolCallSchema).optional(),
    reasoning: z.string().optional(),
  }),
  z.object({
    role: z.literal('tool'),
    toolCallId: z.string(),
    toolName: z.string(),
    content: z.string(),
    isError: z.boolean().optional(),
  }),
]);
export type Message = z.infer<typeof messageSchema>;
