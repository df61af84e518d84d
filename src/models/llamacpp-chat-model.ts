import type { ChatModel, FinishReason, GenerateRequest, GenerateResult } from '../spec/chat-model.js';
import { ProviderError } from '../spec/errors.js';
import type { Message, ToolCall } from '../spec/message.js';
import type {
  LlamaChatHistoryItem,
  LlamaFunctionCallItem,
  LlamaFunctions,
  LlamaGenerateOptions,
} from './llamacpp-api.js';
import {
  acquireLlamaCppEngine,
  type LlamaCppEngine,
  type LlamaCppEngineOptions,
  type LlamaCppSlot,
} from './llamacpp-engine.js';

export { LLAMA_CPP_INSTALL, LLAMA_CPP_PACKAGE } from './llamacpp-api.js';

/** Our messages as node-llama-cpp chat history; tool results are attached to their calls. */
function toHistory(messages: readonly Message[]): LlamaChatHistoryItem[] {
  const results = new Map<string, string>();
  for (const message of messages) if (message.role === 'tool') results.set(message.toolCallId, message.content);
  const history: LlamaChatHistoryItem[] = [];
  for (const message of messages) {
    if (message.role === 'system') history.push({ type: 'system', text: message.content });
    else if (message.role === 'user') history.push({ type: 'user', text: message.content });
    else if (message.role === 'assistant') {
      const response: Array<string | LlamaFunctionCallItem> = message.content ? [message.content] : [];
      for (const call of message.toolCalls ?? []) {
        response.push({
          type: 'functionCall',
          name: call.name,
          params: call.input,
          result: results.get(call.id) ?? '',
        });
      }
      history.push({ type: 'model', response });
    }
  }
  if (history.at(-1)?.type !== 'model') history.push({ type: 'model', response: [] });
  return history;
}

const STOP_REASONS: Record<string, FinishReason> = {
  functionCalls: 'tool-calls',
  maxTokens: 'length',
  eogToken: 'stop',
  stopGenerationTrigger: 'stop',
  customStopTrigger: 'stop',
};

async function generateOnce({
  engine,
  slot,
  request,
}: {
  engine: LlamaCppEngine;
  slot: LlamaCppSlot;
  request: GenerateRequest;
}): Promise<GenerateResult> {
  const { settings } = request;
  const options: LlamaGenerateOptions = {};
  if (request.abortSignal) options.signal = request.abortSignal;
  if (settings.temperature !== undefined) options.temperature = settings.temperature;
  if (settings.topP !== undefined) options.topP = settings.topP;
  if (settings.seed !== undefined) options.seed = settings.seed;
  if (settings.stop?.length) options.customStopTriggers = settings.stop;
  let functions: LlamaFunctions | undefined;
  if (request.tools?.length && request.toolChoice !== 'none') {
    functions = Object.fromEntries(
      request.tools.map((tool) => [tool.name, { description: tool.description, params: tool.inputSchema }]),
    );
    options.functions = functions;
    options.documentFunctionParams = true;
  } else if (request.responseSchema) {
    options.grammar = await engine.llama.createGrammarForJsonSchema(request.responseSchema.jsonSchema);
  }
  const history = toHistory(request.messages);
  // The prompt as the chat template renders it; what does not fit the context would be dropped by
  // node-llama-cpp's context shift, silently changing the task, so it is an error instead.
  const promptTokens = slot.chat.chatWrapper
    .generateContextState({
      chatHistory: history,
      ...(functions ? { availableFunctions: functions, documentFunctionParams: true } : {}),
    })
    .contextText.tokenize(engine.model.tokenizer).length;
  const room = engine.contextSize - promptTokens - 1;
  if (room < 1) {
    throw new ProviderError(
      `the prompt (${promptTokens} tokens) does not fit the llamacpp context of ${engine.contextSize} tokens: set CONFIDANT_LLAMACPP_CONTEXT_SIZE to a larger context`,
      { kind: 'deterministic' },
    );
  }
  // Without a limit a model that never ends its turn would generate forever through context shifts.
  options.maxTokens = Math.min(settings.maxOutputTokens ?? room, room);
  // Every call starts from an empty sequence: the same request then gives the same text whatever
  // ran on the sequence before (reusing a cached prefix changes the floating-point path).
  await slot.sequence.clearHistory();
  // The meter's counts are getters: read them, a spread would copy nothing.
  const meter = slot.sequence.tokenMeter;
  const before = { input: meter.usedInputTokens, output: meter.usedOutputTokens };
  const response = await slot.chat.generateResponse(history, options);
  if (response.lastEvaluation.contextShiftMetadata != null) {
    throw new ProviderError(
      `the conversation outgrew the llamacpp context of ${engine.contextSize} tokens and node-llama-cpp dropped part of it: set CONFIDANT_LLAMACPP_CONTEXT_SIZE to a larger context or lower maxOutputTokens`,
      { kind: 'deterministic' },
    );
  }
  const toolCalls: ToolCall[] = (response.functionCalls ?? []).map((call, index) => ({
    id: `call_${index + 1}`,
    name: call.functionName,
    input: call.params ?? {},
  }));
  return {
    text: response.response,
    toolCalls,
    finishReason: STOP_REASONS[response.metadata.stopReason] ?? 'other',
    usage: {
      inputTokens: meter.usedInputTokens - before.input,
      outputTokens: meter.usedOutputTokens - before.output,
    },
    providerMetadata: {
      llamacpp: {
        contextSize: engine.contextSize,
        sequences: engine.sequences,
        threads: engine.threads,
        gpu: engine.gpu,
      },
    },
    warnings: [],
  };
}

/**
 * A `ChatModel` over a local GGUF file through the optional peer `node-llama-cpp`, on the CPU
 * unless `gpu` says otherwise, never compiling llama.cpp. The model is loaded once per process
 * and shared by every model created for the same file and options (see `acquireLlamaCppEngine`
 * for the user errors it raises). Calls run on the engine's context sequences, one call per
 * sequence, the rest waiting in order; each starts from an empty sequence so that identical
 * requests (same seed) give identical text. A prompt that does not fit the context, or a
 * conversation that outgrows it, is a deterministic `ProviderError`, never a truncated answer.
 */
export async function createLlamaCppChatModel(options: LlamaCppEngineOptions): Promise<ChatModel> {
  const engine = await acquireLlamaCppEngine(options);
  return {
    specificationVersion: 'confidant-1',
    provider: 'llamacpp',
    modelId: options.modelPath,
    doGenerate: (request) =>
      engine.use({
        ...(request.abortSignal ? { signal: request.abortSignal } : {}),
        run: (slot) => generateOnce({ engine, slot, request }),
      }),
  };
}
