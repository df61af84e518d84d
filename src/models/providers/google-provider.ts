import { modelLookupProbe } from '../probes/model-lookup-probe.js';
import { errorSnippet } from '../probes/probe-http.js';
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
  probe: modelLookupProbe({
    headers: (apiKey): Record<string, string> => (apiKey === undefined ? {} : { 'x-goog-api-key': apiKey }),
    modelPath: (modelId) => `models/${encodeURIComponent(modelId.replace(/^models\//, ''))}`,
    listPath: 'models?pageSize=1000',
    listIds: googleModelIds,
    // Google answers an invalid key with 400 API_KEY_INVALID rather than 401.
    causeOf: (answer) =>
      answer.status === 400 && /api[ _]key/i.test(errorSnippet(answer)) ? 'unauthorized' : undefined,
  }),
  async create({ spec, apiKey, fetch, timeoutMs }) {
    // Loaded on first use: a command that never calls Gemini never loads its SDK.
    const [{ createGoogleGenerativeAI }, { aiSdkChatModel }] = await Promise.all([
      import('@ai-sdk/google'),
      import('../ai-sdk-chat-model.js'),
    ]);
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

/** The ids of Google's `{ models: [{ name: "models/<id>" }] }` listing. */
function googleModelIds(json: unknown): string[] {
  const models = typeof json === 'object' && json !== null ? Reflect.get(json, 'models') : undefined;
  if (!Array.isArray(models)) return [];
  return models
    .map((model: unknown) => (typeof model === 'object' && model !== null ? Reflect.get(model, 'name') : undefined))
    .filter((name): name is string => typeof name === 'string')
    .map((name) => name.replace(/^models\//, ''));
}
