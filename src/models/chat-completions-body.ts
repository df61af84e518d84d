import type { GenerateRequest, ToolDescriptor } from '../spec/chat-model.js';
import type { Message } from '../spec/message.js';

/** One message of a Chat Completions request. */
export type ChatCompletionsMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** The JSON body of `POST …/chat/completions` (non-streaming), as the lean client sends it. */
export type ChatCompletionsBody = {
  model: string;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  response_format?:
    | { type: 'json_object' }
    | { type: 'json_schema'; json_schema: { schema: object; strict: boolean; name: string } };
  stop?: string[];
  seed?: number;
  messages: ChatCompletionsMessage[];
  tools?: Array<{ type: 'function'; function: { name: string; description: string; parameters: object } }>;
  tool_choice?: 'auto' | 'none' | 'required';
};

/** Options of `toChatCompletionsBody`. */
export type ChatCompletionsBodyOptions = {
  request: GenerateRequest;
  modelId: string;
  /** The server enforces a JSON schema (`response_format: json_schema`); otherwise JSON mode only. */
  structuredOutputs: boolean;
};

/** The body and the warnings about what the server could not be asked for. */
export type ChatCompletionsRequest = { body: ChatCompletionsBody; warnings: string[] };

/** The warning the AI SDK's openai-compatible model gives for a schema it cannot send (same words). */
export const SCHEMA_UNSUPPORTED_WARNING =
  'unsupported: responseFormat (JSON response format schema is only supported with structuredOutputs)';

/**
 * Our request as a Chat Completions body, field for field what `@ai-sdk/openai-compatible` sends
 * for the same request (so both paths hit a server, and its logs, the same way): unset settings
 * are left out, `stop` only when non-empty, `tool_choice` only with tools, a response schema as
 * `json_schema` (strict) when the server supports structured outputs and as `json_object` with a
 * warning otherwise. Each tool result is a `tool` message of its own.
 */
export function toChatCompletionsBody({
  request,
  modelId,
  structuredOutputs,
}: ChatCompletionsBodyOptions): ChatCompletionsRequest {
  const { settings } = request;
  const warnings: string[] = [];
  const body: ChatCompletionsBody = { model: modelId, messages: [] };
  if (settings.maxOutputTokens !== undefined) body.max_tokens = settings.maxOutputTokens;
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (request.responseSchema !== undefined) {
    if (structuredOutputs) {
      body.response_format = {
        type: 'json_schema',
        json_schema: { schema: request.responseSchema.jsonSchema, strict: true, name: request.responseSchema.name },
      };
    } else {
      body.response_format = { type: 'json_object' };
      warnings.push(SCHEMA_UNSUPPORTED_WARNING);
    }
  }
  if (settings.stop !== undefined && settings.stop.length > 0) body.stop = settings.stop;
  if (settings.seed !== undefined) body.seed = settings.seed;
  body.messages = request.messages.map(toWireMessage);
  if (request.tools !== undefined && request.tools.length > 0) {
    body.tools = request.tools.map(toWireTool);
    if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
  }
  return { body, warnings };
}

function toWireTool(tool: ToolDescriptor) {
  return {
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  };
}

/** Tool-call arguments as the wire wants them: a JSON string (a string that already is JSON is sent as is). */
function toolArguments(input: unknown): string {
  if (typeof input === 'string') {
    try {
      JSON.parse(input);
      return input;
    } catch {
      return JSON.stringify(input);
    }
  }
  return JSON.stringify(input);
}

function toWireMessage(message: Message): ChatCompletionsMessage {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant': {
      // Reasoning is not sent back (as on the AI SDK path).
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: toolArguments(call.input) },
        })),
      };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}
