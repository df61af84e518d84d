import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { aiSdkChatModel } from '../ai-sdk-chat-model.js';
import type { ProviderDefinition } from '../provider-registry.js';

/** Google Gemini (Generative Language API) through the AI SDK. */
export const googleProvider: ProviderDefinition = {
  id: 'google',
  description: 'Google Gemini models. Key: GOOGLE_GENERATIVE_AI_API_KEY (or GEMINI_API_KEY).',
  example: 'google:gemini-2.5-flash',
  defaultBaseURL: 'https://generativelanguage.googleapis.com/v1beta',
  apiKeyEnv: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'],
  apiKeyRequired: true,
  supportsSeed: true,
  create({ spec, apiKey, fetch, timeoutMs }) {
    const provider = createGoogleGenerativeAI({
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(spec.baseURLs[0] === undefined ? {} : { baseURL: spec.baseURLs[0] }),
      ...(fetch === undefined ? {} : { fetch }),
    });
    return aiSdkChatModel(provider.languageModel(spec.modelId), {
      provider: 'google',
      modelId: spec.modelId,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      secrets: apiKey === undefined ? [] : [apiKey],
    });
  },
};
