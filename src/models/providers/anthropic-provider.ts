import { modelLookupProbe } from '../probes/model-lookup-probe.js';
import { listedModelIds } from '../probes/openai-models-probe.js';
import type { ProviderDefinition } from '../provider-registry.js';

/** Anthropic Messages API through the AI SDK. */
export const anthropicProvider: ProviderDefinition = {
  id: 'anthropic',
  description: 'Anthropic Claude models. Key: ANTHROPIC_API_KEY.',
  example: 'anthropic:claude-sonnet-4-5',
  defaultBaseURL: 'https://api.anthropic.com/v1',
  apiKeyEnv: ['ANTHROPIC_API_KEY'],
  apiKeyRequired: true,
  supportsSeed: false,
  probe: modelLookupProbe({
    headers: (apiKey) => ({
      'anthropic-version': '2023-06-01',
      ...(apiKey === undefined ? {} : { 'x-api-key': apiKey }),
    }),
    modelPath: (modelId) => `models/${encodeURIComponent(modelId)}`,
    listPath: 'models?limit=1000',
    listIds: (json) => listedModelIds(json) ?? [],
  }),
  async create({ spec, apiKey, fetch, timeoutMs }) {
    // Loaded on first use: a command that never calls Anthropic never loads its SDK.
    const [{ createAnthropic }, { aiSdkChatModel }] = await Promise.all([
      import('@ai-sdk/anthropic'),
      import('../ai-sdk-chat-model.js'),
    ]);
    const provider = createAnthropic({
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(spec.baseURLs[0] === undefined ? {} : { baseURL: spec.baseURLs[0] }),
      ...(fetch === undefined ? {} : { fetch }),
    });
    return aiSdkChatModel(provider.languageModel(spec.modelId), {
      provider: 'anthropic',
      modelId: spec.modelId,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      secrets: apiKey === undefined ? [] : [apiKey],
    });
  },
};
