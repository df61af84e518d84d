import type { ChatModel } from '../spec/chat-model.js';
import type { ModelSpec } from '../spec/model-spec.js';
import type { ProviderProbe } from './probe-endpoint.js';
import { anthropicProvider } from './providers/anthropic-provider.js';
import { googleProvider } from './providers/google-provider.js';
import { llamacppProvider } from './providers/llamacpp-provider.js';
import { mockProvider } from './providers/mock-provider.js';
import { ollamaProvider, openaiCompatibleProvider, vllmProvider } from './providers/openai-compatible-providers.js';
import { openaiProvider } from './providers/openai-provider.js';

/**
 * Which client talks to OpenAI-compatible servers (`openai-compatible`, `ollama`, `vllm`): `lean`
 * (`leanChatModel`: JSON over pooled keep-alive sockets, no AI SDK) or `ai-sdk` (`@ai-sdk/openai-compatible`).
 */
export type OpenAiCompatibleClient = 'lean' | 'ai-sdk';

/** What a provider's `create` receives. */
export type ProviderCreateOptions = {
  /** The parsed spec; for URL-based providers `baseURLs` holds exactly the one endpoint to use. */
  spec: ModelSpec;
  apiKey?: string;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
  /**
   * The client of the OpenAI-compatible providers; others ignore it. Default `lean`, except that a
   * `fetch` given without a client means `ai-sdk` (only that path sends its requests through a fetch).
   */
  client?: OpenAiCompatibleClient;
  /** Client-side timeout per request. */
  timeoutMs?: number;
  /** The environment the CLI passed in, for providers with settings of their own (llamacpp). */
  env?: Record<string, string | undefined>;
};

/**
 * A model provider, registered as a value (no switch on names). Adding one is a file
 * exporting a `ProviderDefinition` plus one line in `providerRegistry`.
 */
export type ProviderDefinition = {
  id: string;
  description: string;
  /** A spec string that shows how to use it. */
  example: string;
  /** Used when the spec gives no `@baseURL`. */
  defaultBaseURL?: string;
  /** The spec must give `@baseURL`. */
  requiresBaseURL?: boolean;
  /** `false` for providers without an HTTP endpoint (local files, scripted models). Default true. */
  acceptsBaseURL?: boolean;
  /** Environment variables that may hold the API key, in order of preference. */
  apiKeyEnv?: readonly string[];
  /** A missing key is an error (otherwise the key is optional, e.g. self-hosted servers). */
  apiKeyRequired?: boolean;
  /** Honours a sampling seed, so judges can default to one. */
  supportsSeed?: boolean;
  /**
   * The cheap pre-flight check of one endpoint (`probeEndpoint`): list or look up models, else a
   * 1-token generation; a file check for local models. Absent: no check is needed (scripted models).
   */
  probe?: ProviderProbe;
  create(options: ProviderCreateOptions): ChatModel | Promise<ChatModel>;
};

/** Every built-in provider, in the order `confidant list providers` shows them. */
export const providerRegistry: readonly ProviderDefinition[] = [
  openaiProvider,
  anthropicProvider,
  googleProvider,
  openaiCompatibleProvider,
  ollamaProvider,
  vllmProvider,
  llamacppProvider,
  mockProvider,
];

/** The provider with this id, or `undefined`. */
export function findProvider(
  id: string,
  registry: readonly ProviderDefinition[] = providerRegistry,
): ProviderDefinition | undefined {
  return registry.find((provider) => provider.id === id);
}
