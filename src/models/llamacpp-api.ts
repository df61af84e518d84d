import { importOptionalPeer } from './import-optional-peer.js';

/** The optional peer and the exact version this adapter was written against. */
export const LLAMA_CPP_PACKAGE = 'node-llama-cpp';
export const LLAMA_CPP_INSTALL = 'npm install node-llama-cpp@3.21.1';

// The parts of node-llama-cpp's API the llamacpp adapter uses, typed locally so that tsc and a
// user's install do not need the optional (700 MB) package. `llamacpp-api.test.ts` checks that the
// real package's objects have these shapes (its types are checked by tsc there).

/** A function call in a model turn of the chat history, with its result. */
export type LlamaFunctionCallItem = { type: 'functionCall'; name: string; params: unknown; result: unknown };
/** node-llama-cpp's chat history items. */
export type LlamaChatHistoryItem =
  | { type: 'system'; text: string }
  | { type: 'user'; text: string }
  | { type: 'model'; response: Array<string | LlamaFunctionCallItem> };
export type LlamaFunctions = Record<string, { description: string; params: object }>;

export type LlamaGenerateOptions = {
  signal?: AbortSignal;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  seed?: number;
  customStopTriggers?: string[];
  functions?: LlamaFunctions;
  documentFunctionParams?: boolean;
  grammar?: unknown;
};

export type LlamaChatResponse = {
  response: string;
  functionCalls?: Array<{ functionName: string; params: unknown }>;
  lastEvaluation: { contextShiftMetadata: unknown };
  metadata: { stopReason: string };
};

export type LlamaTokenizer = unknown;

export type LlamaChatWrapper = {
  readonly wrapperName: string;
  generateContextState(options: {
    chatHistory: LlamaChatHistoryItem[];
    availableFunctions?: LlamaFunctions;
    documentFunctionParams?: boolean;
  }): { contextText: { tokenize(tokenizer: LlamaTokenizer): readonly unknown[] } };
};

export type LlamaChatInstance = {
  readonly chatWrapper: LlamaChatWrapper;
  generateResponse(history: LlamaChatHistoryItem[], options: LlamaGenerateOptions): Promise<LlamaChatResponse>;
};

export type LlamaTokenMeter = { readonly usedInputTokens: number; readonly usedOutputTokens: number };

export type LlamaSequence = {
  readonly tokenMeter: LlamaTokenMeter;
  clearHistory(): Promise<void>;
};

export type LlamaContext = {
  readonly contextSize: number;
  getSequence(): LlamaSequence;
};

export type LlamaModel = {
  readonly tokenizer: LlamaTokenizer;
  createContext(options: {
    contextSize?: number | { min?: number; max?: number };
    sequences: number;
    threads?: number;
  }): Promise<LlamaContext>;
};

/** The GPU backends node-llama-cpp ships prebuilt binaries for, or `false` for CPU only. */
export type LlamaGpu = false | 'auto' | 'cuda' | 'vulkan' | 'metal';

/** node-llama-cpp's log levels are a string enum: `'error'`, `'warn'`, …; pass the enum's values. */
export type LlamaLogLevel = string;

export type LlamaInstance = {
  /** The backend actually in use (`false` on CPU). */
  readonly gpu: string | false;
  readonly cpuMathCores: number;
  getRamState(): Promise<{ total: number; free: number }>;
  loadModel(options: { modelPath: string }): Promise<LlamaModel>;
  createGrammarForJsonSchema(schema: object): Promise<unknown>;
};

export type GgufFileInfo = unknown;

export type GgufInsightsInstance = {
  /** The context the model was trained with, from its metadata. */
  readonly trainContextSize: number | undefined;
  estimateModelResourceRequirementsV2(options: { gpuLayers: number }): Promise<{ cpuRam: number; gpuVram: number }>;
  estimateContextResourceRequirementsV2(options: {
    contextSize: number;
    modelGpuLayers: number;
    sequences?: number;
  }): Promise<{ cpuRam: number; gpuVram: number }>;
};

export type LlamaModule = {
  LlamaLogLevel: { readonly error: LlamaLogLevel };
  getLlama(options: {
    gpu: LlamaGpu;
    build: 'never';
    logLevel?: LlamaLogLevel;
    logger?: (level: LlamaLogLevel, message: string) => void;
  }): Promise<LlamaInstance>;
  LlamaChat: new (options: { contextSequence: LlamaSequence; chatWrapper?: LlamaChatWrapper }) => LlamaChatInstance;
  readGgufFileInfo(
    path: string,
    options: { sourceType: 'filesystem'; readTensorInfo?: boolean },
  ): Promise<GgufFileInfo>;
  GgufInsights: { from(fileInfo: GgufFileInfo, llama: LlamaInstance): Promise<GgufInsightsInstance> };
  InsufficientMemoryError: abstract new (...args: never[]) => Error;
};

function isLlamaModule(value: unknown): value is LlamaModule {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return [
    'getLlama',
    'LlamaChat',
    'LlamaLogLevel',
    'readGgufFileInfo',
    'GgufInsights',
    'InsufficientMemoryError',
  ].every((name) => record[name] !== undefined);
}

/** Loads the optional peer, or explains how to install it (`MissingOptionalDependencyError`). */
export function importLlamaCpp(): Promise<LlamaModule> {
  return importOptionalPeer({
    packageName: LLAMA_CPP_PACKAGE,
    install: LLAMA_CPP_INSTALL,
    purpose: 'llamacpp models',
    isModule: isLlamaModule,
  });
}
