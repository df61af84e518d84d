import type { LanguageModelV3 } from '@ai-sdk/provider';
import type {
  ChatModel,
  FinishReason,
  GenerateRequest,
  GenerateResult,
  TokenUsage,
  ToolDescriptor,
} from '../spec/chat-model.js';
import type { Message, ToolCall } from '../spec/message.js';
import { onAbort } from './on-abort.js';
import { parseToolInput } from './parse-tool-input.js';
import { requestTimeoutError, toProviderError } from './provider-error.js';

type CallOptions = Parameters<LanguageModelV3['doGenerate']>[0];
type SdkResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;
type SdkPrompt = CallOptions['prompt'];
type SdkMessage = SdkPrompt[number];
type SdkFunctionTool = Extract<NonNullable<CallOptions['tools']>[number], { type: 'function' }>;
type SdkAssistantPart = Extract<SdkMessage, { role: 'assistant' }>['content'][number];
type SdkToolResultPart = Extract<Extract<SdkMessage, { role: 'tool' }>['content'][number], { type: 'tool-result' }>;
type SdkWarning = SdkResult['warnings'][number];

/** Options of `aiSdkChatModel`. */
export type AiSdkChatModelOptions = {
  /** Our provider id (e.g. `ollama`); defaults to the SDK's provider name. */
  provider?: string;
  /** Defaults to the SDK model's id. */
  modelId?: string;
  /** Client-side timeout per request; a timeout is a `transient` ProviderError. */
  timeoutMs?: number;
  /** Strings (API keys) scrubbed from error messages before they can reach events. */
  secrets?: readonly string[];
};

/**
 * Adapts any AI SDK 6 language model to our one-method `ChatModel` port by calling its
 * `doGenerate` directly: no SDK retries (the wrapper retries), no tool execution loop.
 * Every failure is mapped to a `ProviderError` (see `toProviderError`), except an abort by
 * the caller's own signal, which is rethrown as is.
 */
export function aiSdkChatModel(languageModel: LanguageModelV3, options: AiSdkChatModelOptions = {}): ChatModel {
  const provider = options.provider ?? languageModel.provider;
  const modelId = options.modelId ?? languageModel.modelId;
  const secrets = options.secrets ?? [];
  return {
    specificationVersion: 'confidant-1',
    provider,
    modelId,
    async doGenerate(request: GenerateRequest): Promise<GenerateResult> {
      const callerSignal = request.abortSignal;
      callerSignal?.throwIfAborted();
      const controller = new AbortController();
      let timedOut = false;
      const timer =
        options.timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              timedOut = true;
              controller.abort();
            }, options.timeoutMs);
      const stopListening = callerSignal
        ? onAbort(callerSignal, () => controller.abort(callerSignal.reason))
        : undefined;
      try {
        const result = await languageModel.doGenerate({ ...toCallOptions(request), abortSignal: controller.signal });
        return fromSdkResult(result);
      } catch (error) {
        if (callerSignal?.aborted) throw callerSignal.reason ?? error;
        if (timedOut && options.timeoutMs !== undefined) {
          throw requestTimeoutError({ provider, modelId, timeoutMs: options.timeoutMs, cause: error });
        }
        throw toProviderError(error, { provider, modelId, secrets });
      } finally {
        if (timer !== undefined) clearTimeout(timer);
        stopListening?.();
      }
    },
  };
}

/** Our request as AI SDK V3 call options (without the abort signal). */
export function toCallOptions(request: GenerateRequest): CallOptions {
  const { settings } = request;
  const options: CallOptions = { prompt: toSdkPrompt(request.messages) };
  if (settings.temperature !== undefined) options.temperature = settings.temperature;
  if (settings.topP !== undefined) options.topP = settings.topP;
  if (settings.maxOutputTokens !== undefined) options.maxOutputTokens = settings.maxOutputTokens;
  if (settings.seed !== undefined) options.seed = settings.seed;
  if (settings.stop !== undefined && settings.stop.length > 0) options.stopSequences = settings.stop;
  if (request.tools !== undefined && request.tools.length > 0) options.tools = request.tools.map(toSdkTool);
  if (request.toolChoice !== undefined) options.toolChoice = { type: request.toolChoice };
  if (request.responseSchema !== undefined) {
    options.responseFormat = {
      type: 'json',
      name: request.responseSchema.name,
      schema: request.responseSchema.jsonSchema as NonNullable<SdkFunctionTool['inputSchema']>,
    };
  }
  return options;
}

function toSdkTool(tool: ToolDescriptor): SdkFunctionTool {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    // Our descriptor carries a plain JSON schema object; the SDK types it as JSONSchema7.
    inputSchema: tool.inputSchema as SdkFunctionTool['inputSchema'],
  };
}

/** Our messages as an AI SDK prompt. Consecutive tool results are grouped into one tool message. */
export function toSdkPrompt(messages: readonly Message[]): SdkPrompt {
  const prompt: SdkPrompt = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content });
        break;
      case 'user':
        prompt.push({ role: 'user', content: [{ type: 'text', text: message.content }] });
        break;
      case 'assistant': {
        // Reasoning is not sent back: providers that need it also need signatures we do not keep.
        const content: SdkAssistantPart[] = [];
        if (message.content.length > 0) content.push({ type: 'text', text: message.content });
        for (const call of message.toolCalls ?? []) {
          content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.input });
        }
        prompt.push({ role: 'assistant', content });
        break;
      }
      case 'tool': {
        const part: SdkToolResultPart = {
          type: 'tool-result',
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          output: message.isError
            ? { type: 'error-text', value: message.content }
            : { type: 'text', value: message.content },
        };
        const previous = prompt.at(-1);
        if (previous?.role === 'tool') previous.content.push(part);
        else prompt.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return prompt;
}

function warningText(warning: SdkWarning): string {
  if (warning.type === 'other') return warning.message;
  return `${warning.type}: ${warning.feature}${warning.details ? ` (${warning.details})` : ''}`;
}

/** An AI SDK V3 result in our provider-neutral shape; unreported token counts become `null`. */
export function fromSdkResult(result: SdkResult): GenerateResult {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const part of result.content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'tool-call' && !part.providerExecuted) {
      toolCalls.push({ id: part.toolCallId, name: part.toolName, input: parseToolInput(part.input) });
    }
  }
  const usage: TokenUsage = {
    inputTokens: result.usage.inputTokens.total ?? null,
    outputTokens: result.usage.outputTokens.total ?? null,
  };
  if (result.usage.outputTokens.reasoning !== undefined) usage.reasoningTokens = result.usage.outputTokens.reasoning;
  const finishReason: FinishReason = result.finishReason.unified;
  const mapped: GenerateResult = { text, toolCalls, finishReason, usage, warnings: result.warnings.map(warningText) };
  if (result.providerMetadata !== undefined) mapped.providerMetadata = result.providerMetadata;
  return mapped;
}
