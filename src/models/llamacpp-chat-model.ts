import type { ChatModel, FinishReason, GenerateRequest, GenerateResult } from '../spec/chat-model.js';
import type { Message, ToolCall } from '../spec/message.js';
import { importOptionalPeer } from './import-optional-peer.js';

/** The optional peer and the exact version this adapter was written against. */
export const LLAMA_CPP_PACKAGE = 'node-llama-cpp';
export const LLAMA_CPP_INSTALL = 'npm install node-llama-cpp@3.21.1';

// The few parts of node-llama-cpp's API this adapter uses, typed locally so that tsc does not
// need the (optional, 700 MB) package to be installed.
type FunctionCallItem = { type: 'functionCall'; name: string; params: unknown; result: unknown };
type ChatHistoryItem =
  | { type: 'system'; text: string }
  | { type: 'user'; text: string }
  | { type: 'model'; response: Array<string | FunctionCallItem> };
type GenerateOptions = {
  signal?: AbortSignal;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  seed?: number;
  customStopTriggers?: string[];
  functions?: Record<string, { description: string; params: object }>;
  documentFunctionParams?: boolean;
  grammar?: unknown;
};
type ChatResponse = {
  response: string;
  functionCalls?: Array<{ functionName: string; params: unknown }>;
  metadata: { stopReason: string };
};
type LlamaChatInstance = {
  generateResponse(history: ChatHistoryItem[], options: GenerateOptions): Promise<ChatResponse>;
};
type TokenMeter = { usedInputTokens: number; usedOutputTokens: number };
type LlamaSequence = { tokenMeter: TokenMeter };
type LlamaModule = {
  getLlama(options: { gpu: false; build: 'never' }): Promise<{
    loadModel(options: { modelPath: string }): Promise<{
      createContext(options: { contextSize?: number; sequences: number }): Promise<{ getSequence(): LlamaSequence }>;
    }>;
    createGrammarForJsonSchema(schema: object): Promise<unknown>;
  }>;
  LlamaChat: new (options: { contextSequence: LlamaSequence }) => LlamaChatInstance;
};

function isLlamaModule(value: unknown): value is LlamaModule {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.getLlama === 'function' && typeof record.LlamaChat === 'function';
}

/** Loads the optional peer, or explains how to install it. */
function importLlamaCpp(): Promise<LlamaModule> {
  return importOptionalPeer({
    packageName: LLAMA_CPP_PACKAGE,
    install: LLAMA_CPP_INSTALL,
    purpose: 'llamacpp models',
    isModule: isLlamaModule,
  });
}

/** Our messages as node-llama-cpp chat history; tool results are attached to their calls. */
function toHistory(messages: readonly Message[]): ChatHistoryItem[] {
  const results = new Map<string, string>();
  for (const message of messages) if (message.role === 'tool') results.set(message.toolCallId, message.content);
  const history: ChatHistoryItem[] = [];
  for (const message of messages) {
    if (message.role === 'system') history.push({ type: 'system', text: message.content });
    else if (message.role === 'user') history.push({ type: 'user', text: message.content });
    else if (message.role === 'assistant') {
      const response: Array<string | FunctionCallItem> = message.content ? [message.content] : [];
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

/**
 * A `ChatModel` over a local GGUF file, via the optional peer `node-llama-cpp` loaded lazily
 * with `getLlama({ gpu: false, build: 'never' })` (CPU, never compiles). The model is loaded
 * once; calls run one at a time on a single context sequence. Throws
 * `MissingOptionalDependencyError` with the install command when the peer is absent.
 */
export async function createLlamaCppChatModel(options: {
  modelPath: string;
  contextSize?: number;
}): Promise<ChatModel> {
  const llamaCpp = await importLlamaCpp();
  const llama = await llamaCpp.getLlama({ gpu: false, build: 'never' });
  const model = await llama.loadModel({ modelPath: options.modelPath });
  const context = await model.createContext({
    sequences: 1,
    ...(options.contextSize === undefined ? {} : { contextSize: options.contextSize }),
  });
  const sequence = context.getSequence();
  const chat = new llamaCpp.LlamaChat({ contextSequence: sequence });
  let queue: Promise<unknown> = Promise.resolve();

  async function generateOnce(request: GenerateRequest): Promise<GenerateResult> {
    const { settings } = request;
    const generateOptions: GenerateOptions = {};
    if (request.abortSignal) generateOptions.signal = request.abortSignal;
    if (settings.maxOutputTokens !== undefined) generateOptions.maxTokens = settings.maxOutputTokens;
    if (settings.temperature !== undefined) generateOptions.temperature = settings.temperature;
    if (settings.topP !== undefined) generateOptions.topP = settings.topP;
    if (settings.seed !== undefined) generateOptions.seed = settings.seed;
    if (settings.stop?.length) generateOptions.customStopTriggers = settings.stop;
    if (request.tools?.length && request.toolChoice !== 'none') {
      generateOptions.functions = Object.fromEntries(
        request.tools.map((tool) => [tool.name, { description: tool.description, params: tool.inputSchema }]),
      );
      generateOptions.documentFunctionParams = true;
    } else if (request.responseSchema) {
      generateOptions.grammar = await llama.createGrammarForJsonSchema(request.responseSchema.jsonSchema);
    }
    const before = { ...sequence.tokenMeter };
    const response = await chat.generateResponse(toHistory(request.messages), generateOptions);
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
        inputTokens: sequence.tokenMeter.usedInputTokens - before.usedInputTokens,
        outputTokens: sequence.tokenMeter.usedOutputTokens - before.usedOutputTokens,
      },
      warnings: [],
    };
  }

  return {
    specificationVersion: 'confidant-1',
    provider: 'llamacpp',
    modelId: options.modelPath,
    doGenerate(request) {
      const run = queue.then(() => generateOnce(request));
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
