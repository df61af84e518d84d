import type { ChatModel } from '../spec/chat-model.js';
import { MissingApiKeyError, ModelSpecError } from '../spec/errors.js';
import type { ModelSpec } from '../spec/model-spec.js';
import { AdaptiveLimiter } from './adaptive-limiter.js';
import { createEndpointPool } from './endpoint-pool.js';
import { parseModelSpec, redactEndpoint } from './parse-model-spec.js';
import { tagEndpointErrors } from './provider-error.js';
import { type OpenAiCompatibleClient, type ProviderDefinition, providerRegistry } from './provider-registry.js';

/** A resolved model spec, ready to be wrapped. Holds no secrets except inside the adapter. */
export type ResolvedChatModel = {
  /** The adapter: one endpoint, or an endpoint pool when the spec lists several base URLs. */
  model: ChatModel;
  spec: ModelSpec;
  provider: ProviderDefinition;
  /** Effective base URLs (the default when none was given), redacted for storage. */
  endpoints: string[];
  /**
   * The limiter for the wrapper's rate-limit layer; `null` for a pool, which limits each of
   * its endpoints itself.
   */
  limiter: AdaptiveLimiter | null;
};

/** Options of `resolveChatModel`. */
export type ResolveChatModelOptions = {
  spec: string | ModelSpec;
  /** The environment, passed in by the CLI (library code never reads it itself). */
  env: Record<string, string | undefined>;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** The client of OpenAI-compatible providers (see `ProviderCreateOptions.client`). */
  client?: OpenAiCompatibleClient;
  registry?: readonly ProviderDefinition[];
  /** The limiter of an endpoint (by redacted URL, or `provider:model` without one); share it across roles. */
  limiterFor?: (endpointKey: string) => AdaptiveLimiter;
};

function formatSpec(spec: ModelSpec): string {
  return `${spec.provider}:${spec.modelId}`;
}

/**
 * The API key for `provider` from `env` (its `apiKeyEnv` names, in order; blank values count as
 * unset), or `undefined` when none is set and the key is optional. A missing required key is a
 * `MissingApiKeyError` naming the variables and how to set them. Used for chat models and, by the
 * CLI, for `embedder` specs on the same providers.
 */
export function apiKeyFromEnv({
  provider,
  spec,
  env,
}: {
  provider: ProviderDefinition;
  spec: ModelSpec;
  env: Record<string, string | undefined>;
}): string | undefined {
  const names = provider.apiKeyEnv ?? [];
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  if (provider.apiKeyRequired && names.length > 0) {
    throw new MissingApiKeyError(
      `${formatSpec(spec)} needs an API key: set ${names.join(' or ')} in the environment (for example \`export ${names[0]}=<your key>\`)`,
    );
  }
  return undefined;
}

/** A spec checked against its provider, before any adapter exists (see {@link checkModelSpec}). */
export type CheckedModelSpec = {
  spec: ModelSpec;
  provider: ProviderDefinition;
  /** The key read from the environment, when the provider has one. */
  apiKey: string | undefined;
};

/**
 * Everything about a chat-model spec that can be wrong before a model is called: the syntax, an
 * unknown provider, a base URL the provider needs or refuses, a required API key that is not set.
 * Creates no adapter and opens nothing, so `run --dry-run` refuses what a run would refuse.
 * Throws `ModelSpecError` or `MissingApiKeyError` (user errors naming the fix).
 */
export function checkModelSpec(options: {
  spec: string | ModelSpec;
  env: Record<string, string | undefined>;
  registry?: readonly ProviderDefinition[];
}): CheckedModelSpec {
  const spec = typeof options.spec === 'string' ? parseModelSpec(options.spec) : options.spec;
  const registry = options.registry ?? providerRegistry;
  const provider = registry.find((candidate) => candidate.id === spec.provider);
  if (!provider) {
    const hint =
      spec.provider === 'reference'
        ? ' (reference:<name> agents are rule-based and are resolved by the suite, not as models)'
        : '';
    throw new ModelSpecError(
      `unknown provider "${spec.provider}" in "${formatSpec(spec)}"${hint}; known providers: ${registry.map((candidate) => candidate.id).join(', ')} (see \`confidant list providers\`)`,
    );
  }
  if (provider.acceptsBaseURL === false && spec.baseURLs.length > 0) {
    throw new ModelSpecError(`${provider.id} models take no @baseURL: use ${provider.example}`);
  }
  if (provider.requiresBaseURL && spec.baseURLs.length === 0) {
    throw new ModelSpecError(`${provider.id} needs a base URL in the spec, e.g. ${provider.example}`);
  }
  return { spec, provider, apiKey: apiKeyFromEnv({ provider, spec, env: options.env }) };
}

/**
 * Turns a spec into an adapter: checks it ({@link checkModelSpec}: provider, base URLs, API key
 * read from the `env` passed in), and creates one adapter per endpoint, pooled when there are
 * several. Unknown providers and bad base-URL use are `ModelSpecError`s.
 */
export async function resolveChatModel(options: ResolveChatModelOptions): Promise<ResolvedChatModel> {
  const { spec, provider, apiKey } = checkModelSpec({
    spec: options.spec,
    env: options.env,
    ...(options.registry === undefined ? {} : { registry: options.registry }),
  });
  const limiterFor = options.limiterFor ?? (() => new AdaptiveLimiter());
  const urls =
    spec.baseURLs.length > 0 ? spec.baseURLs : provider.defaultBaseURL === undefined ? [] : [provider.defaultBaseURL];
  const endpoints = urls.map(redactEndpoint);
  // Each adapter's failures name its endpoint, so a cause reads "connection refused http://…".
  const create = async (baseURLs: string[]) => {
    const model = await provider.create({
      spec: { ...spec, baseURLs },
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.client === undefined ? {} : { client: options.client }),
      env: options.env,
    });
    const url = baseURLs[0];
    return url === undefined ? model : tagEndpointErrors({ model, endpoint: redactEndpoint(url) });
  };
  if (urls.length <= 1) {
    return {
      model: await create(urls),
      spec,
      provider,
      endpoints,
      limiter: limiterFor(endpoints[0] ?? formatSpec(spec)),
    };
  }
  const members = await Promise.all(
    urls.map(async (url, index) => ({
      endpoint: endpoints[index]!,
      model: await create([url]),
      limiter: limiterFor(endpoints[index]!),
    })),
  );
  return {
    model: createEndpointPool({ provider: provider.id, modelId: spec.modelId, endpoints: members }),
    spec,
    provider,
    endpoints,
    limiter: null,
  };
}
