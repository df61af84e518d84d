import { openAiModelsProbe } from '../probes/openai-models-probe.js';
import type { ProviderDefinition } from '../provider-registry.js';

const RESPONSES_PREFIX = 'responses/';
const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * OpenAI. `openai:<id>` uses Chat Completions (the API every OpenAI-compatible server speaks);
 * `openai:responses/<id>` opts into the Responses API.
 */
export const openaiProvider: ProviderDefinition = {
  id: 'openai',
  description: 'OpenAI Chat Completions (openai:responses/<id> for the Responses API). Key: OPENAI_API_KEY.',
  example: 'openai:gpt-4o-mini',
  defaultBaseURL: OPENAI_BASE_URL,
  apiKeyEnv: ['OPENAI_API_KEY'],
  apiKeyRequired: true,
  supportsSeed: true,
  // OpenAI's own list is complete; a custom base URL (a proxy) may serve ids it does not list.
  probe: openAiModelsProbe({
    authoritative: ({ baseURL }) => baseURL === undefined || baseURL.replace(/\/+$/, '') === OPENAI_BASE_URL,
    listedIdOf: (modelId) => (modelId.startsWith(RESPONSES_PREFIX) ? modelId.slice(RESPONSES_PREFIX.length) : modelId),
  }),
  async create({ spec, apiKey, fetch, timeoutMs }) {
    // Loaded on first use: a command that never calls OpenAI never loads its SDK.
    const [{ createOpenAI }, { aiSdkChatModel }] = await Promise.all([
      import('@ai-sdk/openai'),
      import('../ai-sdk-chat-model.js'),
    ]);
    const provider = createOpenAI({
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(spec.baseURLs[0] === undefined ? {} : { baseURL: spec.baseURLs[0] }),
      ...(fetch === undefined ? {} : { fetch }),
    });
    const responses = spec.modelId.startsWith(RESPONSES_PREFIX);
    const id = responses ? spec.modelId.slice(RESPONSES_PREFIX.length) : spec.modelId;
    return aiSdkChatModel(responses ? provider.responses(id) : provider.chat(id), {
      provider: 'openai',
      modelId: spec.modelId,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      secrets: apiKey === undefined ? [] : [apiKey],
    });
  },
};
