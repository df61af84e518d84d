import type { ChatModel } from '../../spec/chat-model.js';
import { ModelSpecError } from '../../spec/errors.js';
import { sharedNodeHttpFetch } from '../node-http-fetch.js';
import { matchesOllamaModel, openAiModelsProbe } from '../probes/openai-models-probe.js';
import type { ProviderCreateOptions, ProviderDefinition } from '../provider-registry.js';

async function compatibleChatModel(
  options: ProviderCreateOptions & { name: string; defaultBaseURL?: string; structuredOutputs: boolean },
): Promise<ChatModel> {
  const { spec, apiKey, fetch, timeoutMs, name } = options;
  const baseURL = spec.baseURLs[0] ?? options.defaultBaseURL;
  if (baseURL === undefined) {
    throw new ModelSpecError(`${name} needs a base URL: ${name}:${spec.modelId}@http://host:port/v1`);
  }
  const client = options.client ?? (fetch === undefined ? 'lean' : 'ai-sdk');
  if (client === 'lean') {
    const { leanChatModel } = await import('../lean-chat-model.js');
    return leanChatModel({
      provider: name,
      modelId: spec.modelId,
      baseURL,
      ...(apiKey === undefined ? {} : { apiKey }),
      structuredOutputs: options.structuredOutputs,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
  }
  // Loaded on first use: a command that calls no model never loads the AI SDK.
  const [{ createOpenAICompatible }, { aiSdkChatModel }] = await Promise.all([
    import('@ai-sdk/openai-compatible'),
    import('../ai-sdk-chat-model.js'),
  ]);
  const provider = createOpenAICompatible({
    name,
    baseURL,
    ...(apiKey === undefined ? {} : { apiKey }),
    // Self-hosted servers are where client CPU per call matters: use the lean transport's fetch.
    fetch: fetch ?? sharedNodeHttpFetch(),
    supportsStructuredOutputs: options.structuredOutputs,
    includeUsage: true,
  });
  return aiSdkChatModel(provider.chatModel(spec.modelId), {
    provider: name,
    modelId: spec.modelId,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    secrets: apiKey === undefined ? [] : [apiKey],
  });
}

/** Any server speaking OpenAI Chat Completions; the base URL is required. */
export const openaiCompatibleProvider: ProviderDefinition = {
  id: 'openai-compatible',
  description:
    'Any OpenAI-compatible Chat Completions server; @baseURL required. Optional key: OPENAI_COMPATIBLE_API_KEY.',
  example: 'openai-compatible:my-model@http://127.0.0.1:8080/v1',
  requiresBaseURL: true,
  apiKeyEnv: ['OPENAI_COMPATIBLE_API_KEY'],
  apiKeyRequired: false,
  supportsSeed: true,
  // Generic servers (llama.cpp, TGI, proxies) may answer ids they do not list: confirm by generation.
  probe: openAiModelsProbe({ authoritative: () => false }),
  create: (options) => compatibleChatModel({ ...options, name: 'openai-compatible', structuredOutputs: false }),
};

/** Ollama's OpenAI-compatible endpoint. */
export const ollamaProvider: ProviderDefinition = {
  id: 'ollama',
  description: 'Ollama (OpenAI-compatible API); default http://127.0.0.1:11434/v1. Optional key: OLLAMA_API_KEY.',
  example: 'ollama:qwen3:32b',
  defaultBaseURL: 'http://127.0.0.1:11434/v1',
  apiKeyEnv: ['OLLAMA_API_KEY'],
  apiKeyRequired: false,
  supportsSeed: true,
  probe: openAiModelsProbe({ authoritative: () => true, matches: matchesOllamaModel }),
  create: (options) =>
    compatibleChatModel({
      ...options,
      name: 'ollama',
      defaultBaseURL: 'http://127.0.0.1:11434/v1',
      structuredOutputs: true,
    }),
};

/** vLLM's OpenAI-compatible server; several base URLs form an endpoint pool. */
export const vllmProvider: ProviderDefinition = {
  id: 'vllm',
  description:
    'vLLM (OpenAI-compatible API); default http://127.0.0.1:8000/v1; several @URLs form a pool. Optional key: VLLM_API_KEY.',
  example: 'vllm:meta-llama/Llama-3.3-70B-Instruct@http://h1:8000/v1,http://h2:8000/v1',
  defaultBaseURL: 'http://127.0.0.1:8000/v1',
  apiKeyEnv: ['VLLM_API_KEY'],
  apiKeyRequired: false,
  supportsSeed: true,
  // vLLM serves exactly the names it lists (--served-model-name).
  probe: openAiModelsProbe({ authoritative: () => true }),
  create: (options) =>
    compatibleChatModel({
      ...options,
      name: 'vllm',
      defaultBaseURL: 'http://127.0.0.1:8000/v1',
      structuredOutputs: true,
    }),
};
