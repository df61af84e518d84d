import type { FinishReason, GenerateResult, TokenUsage } from '../spec/chat-model.js';
import type { ToolCall } from '../spec/message.js';
import { parseToolInput } from './parse-tool-input.js';

/**
 * A Chat Completions answer that is not the shape the lean client reads: `shape` for a field of
 * the wrong type (what the AI SDK calls an invalid JSON response), `no-choices` for an empty
 * `choices` list.
 */
export class ChatCompletionShapeError extends Error {
  readonly kind: 'shape' | 'no-choices';

  constructor(message: string, kind: 'shape' | 'no-choices' = 'shape') {
    super(message);
    this.name = 'ChatCompletionShapeError';
    this.kind = kind;
  }
}

/** Options of `parseChatCompletion`. */
export type ParseChatCompletionOptions = {
  /** The parsed JSON body of a 2xx answer. */
  json: unknown;
  /** The `providerMetadata` key (the provider id, as the AI SDK names it). */
  metadataKey: string;
  /** Warnings about the request, carried into the result. */
  warnings?: string[];
  /** Makes ids for tool calls the server sent without one (default: 16 random letters and digits). */
  generateId?: () => string;
};

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(path: string, expected: string): never {
  throw new ChatCompletionShapeError(`${path}: expected ${expected}`);
}

function optionalString(value: unknown, path: string): void {
  if (value !== undefined && value !== null && typeof value !== 'string') fail(path, 'a string');
}

function optionalNumber(value: unknown, path: string): void {
  if (value !== undefined && value !== null && typeof value !== 'number') fail(path, 'a number');
}

function optionalObject(value: unknown, path: string): Json | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) fail(path, 'an object');
  return value;
}

const ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomId(): string {
  let id = '';
  for (let index = 0; index < 16; index++) id += ID_ALPHABET[Math.floor(Math.random() * ID_ALPHABET.length)];
  return id;
}

function checkUsage(usage: unknown): Json | undefined {
  const block = optionalObject(usage, 'usage');
  if (block === undefined) return undefined;
  optionalNumber(block.prompt_tokens, 'usage.prompt_tokens');
  optionalNumber(block.completion_tokens, 'usage.completion_tokens');
  optionalNumber(block.total_tokens, 'usage.total_tokens');
  const prompt = optionalObject(block.prompt_tokens_details, 'usage.prompt_tokens_details');
  if (prompt !== undefined) optionalNumber(prompt.cached_tokens, 'usage.prompt_tokens_details.cached_tokens');
  const completion = optionalObject(block.completion_tokens_details, 'usage.completion_tokens_details');
  if (completion !== undefined) {
    for (const name of ['reasoning_tokens', 'accepted_prediction_tokens', 'rejected_prediction_tokens']) {
      optionalNumber(completion[name], `usage.completion_tokens_details.${name}`);
    }
  }
  return block;
}

function checkToolCalls(value: unknown, path: string): Json[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail(path, 'an array');
  for (let index = 0; index < value.length; index++) {
    const call: unknown = value[index];
    // Paths are spelt out only for a failure: every answer of a run passes here.
    const where = (): string => `${path}[${index}]`;
    if (!isObject(call)) fail(where(), 'an object');
    if (call.id !== undefined && call.id !== null && typeof call.id !== 'string') fail(`${where()}.id`, 'a string');
    const fn = call.function;
    if (!isObject(fn)) fail(`${where()}.function`, 'an object');
    if (typeof fn.name !== 'string') fail(`${where()}.function.name`, 'a string');
    if (typeof fn.arguments !== 'string') fail(`${where()}.function.arguments`, 'a string');
    if (call.extra_content !== undefined && call.extra_content !== null) {
      const extra = optionalObject(call.extra_content, `${where()}.extra_content`);
      const google = optionalObject(extra?.google, `${where()}.extra_content.google`);
      optionalString(google?.thought_signature, `${where()}.extra_content.google.thought_signature`);
    }
  }
  return value as Json[];
}

function checkContent(value: unknown, choice: number): void {
  if (value === undefined || value === null || typeof value === 'string') return;
  const path = `choices[${choice}].message.content`;
  if (!Array.isArray(value)) fail(path, 'a string or an array of parts');
  value.forEach((part: unknown, index) => {
    if (!isObject(part) || typeof part.type !== 'string') fail(`${path}[${index}]`, 'a part with a string type');
  });
}

/** True for a value an optional string member may hold. */
function isOptionalString(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'string';
}

/** `choices[index]`, spelt out only for a failure: every answer of a run passes here. */
function choicePath(index: number): string {
  return `choices[${index}]`;
}

function checkChoice(choice: unknown, index: number): void {
  if (!isObject(choice)) fail(choicePath(index), 'an object');
  const message = choice.message;
  if (!isObject(message)) fail(`${choicePath(index)}.message`, 'an object');
  if (message.role !== undefined && message.role !== null && message.role !== 'assistant') {
    fail(`${choicePath(index)}.message.role`, '"assistant"');
  }
  checkContent(message.content, index);
  if (!isOptionalString(message.reasoning_content)) fail(`${choicePath(index)}.message.reasoning_content`, 'a string');
  if (!isOptionalString(message.reasoning)) fail(`${choicePath(index)}.message.reasoning`, 'a string');
  if (message.tool_calls !== undefined && message.tool_calls !== null) {
    checkToolCalls(message.tool_calls, `${choicePath(index)}.message.tool_calls`);
  }
  if (!isOptionalString(choice.finish_reason)) fail(`${choicePath(index)}.finish_reason`, 'a string');
}

/** The answer's text: a string content, or the text parts of a part list (other parts are not text). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content as Json[]) if (part.type === 'text' && typeof part.text === 'string') text += part.text;
  return text;
}

function finishReasonOf(raw: unknown, refused: boolean): FinishReason {
  if (raw === 'stop') return refused ? 'content-filter' : 'stop';
  if (raw === 'length') return 'length';
  if (raw === 'content_filter') return 'content-filter';
  if (raw === 'tool_calls' || raw === 'function_call') return 'tool-calls';
  return 'other';
}

/**
 * Checks a non-streaming Chat Completions answer against the shape the AI SDK's
 * openai-compatible model accepts (every choice, the usage block) and maps its first choice to our
 * result exactly as that model plus `fromSdkResult` would: text then a refusal as text, tool calls
 * with parsed arguments, the unified finish reason, token counts (`null` without a usage block,
 * else missing counts as 0) and `providerMetadata[metadataKey]`. Reasoning fields are not read,
 * as on the AI SDK path. Throws `ChatCompletionShapeError` for anything else.
 */
export function parseChatCompletion({
  json,
  metadataKey,
  warnings = [],
  generateId = randomId,
}: ParseChatCompletionOptions): GenerateResult {
  if (!isObject(json)) fail('body', 'a JSON object');
  optionalString(json.id, 'id');
  optionalNumber(json.created, 'created');
  optionalString(json.model, 'model');
  const choices = json.choices;
  if (!Array.isArray(choices)) fail('choices', 'an array');
  for (let index = 0; index < choices.length; index++) checkChoice(choices[index], index);
  const usage = checkUsage(json.usage);
  const choice = choices[0] as Json | undefined;
  if (choice === undefined) throw new ChatCompletionShapeError('Response did not contain any choices.', 'no-choices');
  const message = choice.message as Json;
  const refusal = typeof message.refusal === 'string' && message.refusal.length > 0 ? message.refusal : undefined;
  const text = contentText(message.content) + (refusal ?? '');
  const toolCalls: ToolCall[] = checkToolCalls(message.tool_calls, 'tool_calls').map((call) => {
    const fn = call.function as { name: string; arguments: string };
    return {
      id: typeof call.id === 'string' ? call.id : generateId(),
      name: fn.name,
      input: parseToolInput(fn.arguments),
    };
  });
  const tokens: TokenUsage =
    usage === undefined
      ? { inputTokens: null, outputTokens: null }
      : {
          inputTokens: (usage.prompt_tokens as number | null | undefined) ?? 0,
          outputTokens: (usage.completion_tokens as number | null | undefined) ?? 0,
          reasoningTokens:
            (isObject(usage.completion_tokens_details)
              ? (usage.completion_tokens_details.reasoning_tokens as number | null | undefined)
              : undefined) ?? 0,
        };
  const metadata: Json = {};
  const details = isObject(usage?.completion_tokens_details) ? usage.completion_tokens_details : undefined;
  if (typeof details?.accepted_prediction_tokens === 'number') {
    metadata.acceptedPredictionTokens = details.accepted_prediction_tokens;
  }
  if (typeof details?.rejected_prediction_tokens === 'number') {
    metadata.rejectedPredictionTokens = details.rejected_prediction_tokens;
  }
  return {
    text,
    toolCalls,
    finishReason: finishReasonOf(choice.finish_reason, refusal !== undefined),
    usage: tokens,
    warnings,
    providerMetadata: { [metadataKey]: metadata },
  };
}
