import type { GenerateSettings, ModelRolesFactory } from '../spec/chat-model.js';
import type { EmbeddingModel } from '../spec/embedding-model.js';
import { ModelSpecError } from '../spec/errors.js';
import type { ModelRoleDefinition } from '../spec/model-role.js';
import type { ModelDescription, ModelSpec, RoleBinding } from '../spec/model-spec.js';
import { AdaptiveLimiter } from './adaptive-limiter.js';
import { checkModelRoles } from './check-model-roles.js';
import type { Sleep } from './middleware/retry-middleware.js';
import { createModelRolesFactory } from './model-roles.js';
import { parseModelSpec, redactEndpoint } from './parse-model-spec.js';
import { createPriceTable, type PriceOverrides } from './price-table.js';
import { findProvider, type OpenAiCompatibleClient, type ProviderDefinition } from './provider-registry.js';
import { apiKeyFromEnv, resolveChatModel } from './resolve-chat-model.js';
import { ResponseCache } from './response-cache.js';
import type { RoleCatalog } from './role-catalog.js';
import { standardMiddleware } from './standard-middleware.js';
import { UsageLedger } from './usage-ledger.js';
import { type WrappedChatModel, wrapChatModel } from './wrap-chat-model.js';
import { type WrappedEmbeddingModel, wrapEmbeddingModel } from './wrap-embedding-model.js';

/**
 * Turns an embedding role's spec into an adapter (retrieval's `resolveEmbeddingModel`, which lives
 * above models/). `apiKey` reads the provider's key from the environment given to
 * `resolveModelRoles`, only when the adapter needs one. `maxRetries: 0`: the middleware retries.
 */
export type EmbeddingModelResolver = (options: {
  spec: ModelSpec;
  apiKey: () => string | undefined;
  fetch?: typeof fetch;
  maxRetries: number;
  /** Retries of the one call an adapter may make to learn its dimension (it runs outside the middleware). */
  probeRetries: number;
}) => Promise<EmbeddingModel>;

/** Options of `resolveModelRoles` (the CLI maps its flags and environment onto these). */
export type ResolveModelRolesOptions = {
  /** The roles a run can bind (kinds, fallbacks, repeats, defaults), e.g. runner's `MODEL_ROLES`. */
  roles: RoleCatalog;
  /** `--model role=spec` bindings, chat and embedding roles alike. */
  bindings: readonly RoleBinding[];
  /** How embedding roles' specs become adapters; required once an embedding role is bound. */
  resolveEmbeddingModel?: EmbeddingModelResolver;
  /** `--model-setting role.key=value`, by role. */
  settings?: Record<string, Record<string, unknown>>;
  env: Record<string, string | undefined>;
  /** Directory of the response cache; `null` disables caching. */
  cacheDir: string | null;
  /** `false` for `--no-cache` (still writes). */
  cacheReads: boolean;
  cacheNamespace?: string;
  maxRetries?: number;
  maxConnections?: number;
  maxCostUsd?: number;
  maxTokens?: number;
  /** User price overrides (see `priceOverridesSchema`). */
  prices?: PriceOverrides;
  /** Client timeout per HTTP request (`--request-timeout`, default 10 min). */
  timeoutMs?: number;
  /** The longest `Retry-After` a retry obeys (`--max-retry-after`, default `DEFAULT_MAX_RETRY_AFTER_MS`). */
  maxRetryAfterMs?: number;
  /** The least wait before a retry the server told to come back at once (default 250 ms, doubling). */
  minRetryDelayMs?: number;
  fetch?: typeof fetch;
  /**
   * The client of OpenAI-compatible providers: `lean` (default) or `ai-sdk` (the CLI's
   * `CONFIDANT_OPENAI_COMPATIBLE_CLIENT`); see `ProviderCreateOptions.client`.
   */
  openAiCompatibleClient?: OpenAiCompatibleClient;
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
  registry?: readonly ProviderDefinition[];
  /**
   * The per-endpoint limiters, keyed by redacted endpoint; pass one map to several runs (a sweep's
   * cells) so that `maxConnections` bounds each endpoint across all of them. Default: a new map.
   */
  limiters?: Map<string, AdaptiveLimiter>;
};

/** The resolved models of a run. */
export type ResolvedModelRoles = {
  factory: ModelRolesFactory;
  /** What the run header stores: provider, model, redacted endpoints and settings, by role. No secrets. */
  describe(): Record<string, ModelDescription[]>;
  ledger: UsageLedger;
  /** Releases the response cache. */
  close(): void;
};

/** A role's own default settings for one provider: a default seed only where the provider honours seeds. */
function roleDefaults(definition: ModelRoleDefinition | undefined, provider: ProviderDefinition): GenerateSettings {
  const { seed, ...rest } = definition?.defaults ?? {};
  return seed === undefined || !provider.supportsSeed ? rest : { ...rest, seed };
}

/** The endpoints an embedding model calls: its first base URL only (or the provider's default one), redacted. */
function embeddingEndpoints({
  spec,
  registry,
}: {
  spec: ModelSpec;
  registry: readonly ProviderDefinition[] | undefined;
}): string[] {
  const url = spec.baseURLs[0] ?? findProvider(spec.provider, registry)?.defaultBaseURL;
  return url === undefined ? [] : [redactEndpoint(url)];
}

/**
 * Resolves every `--model` binding into a wrapped model (events → cache → usage → retry →
 * rate limit → adapter) and returns the per-sample roles factory, a secret-free description
 * for the run header, the run's usage ledger and a `close`. One limiter is shared per endpoint
 * across roles; one cache and one ledger serve all models. Unknown roles, repeated non-judge
 * roles and bad settings are `ModelSpecError`s; a cost budget with an unpriced model is a
 * `PlanValidationError` naming every such model and the `--price` flag to add. Roles of kind
 * `embedding` (`embedder`) are resolved with `resolveEmbeddingModel` and wrapped in the same cache,
 * usage, retry and rate-limit layers, so embedding calls are cached, counted and budgeted too
 * (described under their role with the embedder's id and dimension). A role's declared defaults
 * (the judge's temperature 0 and seed) sit in a default-settings layer under everything else.
 */
export async function resolveModelRoles(options: ResolveModelRolesOptions): Promise<ResolvedModelRoles> {
  const { roles } = options;
  const roleSettings = checkModelRoles(options);
  const prices = createPriceTable(options.prices ? { overrides: options.prices } : {});
  const ledger = new UsageLedger({
    prices,
    ...(options.maxCostUsd === undefined ? {} : { maxCostUsd: options.maxCostUsd }),
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
  });
  const limiters = options.limiters ?? new Map<string, AdaptiveLimiter>();
  const limiterFor = (key: string) => {
    let limiter = limiters.get(key);
    if (!limiter) {
      limiter = new AdaptiveLimiter({
        maxConnections: options.maxConnections ?? 8,
        ...(options.now ? { now: options.now } : {}),
      });
      limiters.set(key, limiter);
    }
    return limiter;
  };
  const cache = options.cacheDir === null ? null : ResponseCache.open({ directory: options.cacheDir });
  const bindings: Record<string, WrappedChatModel[]> = {};
  const embeddings: Record<string, WrappedEmbeddingModel> = {};
  const descriptions: Record<string, ModelDescription[]> = {};
  const middlewareFor = ({
    endpoints,
    limiter,
    defaults,
  }: {
    endpoints: readonly string[];
    limiter: AdaptiveLimiter | null;
    defaults?: GenerateSettings;
  }) =>
    standardMiddleware({
      cache,
      cacheReads: options.cacheReads,
      ...(options.cacheNamespace === undefined ? {} : { cacheNamespace: options.cacheNamespace }),
      endpointSet: endpoints,
      ledger,
      maxRetries: options.maxRetries ?? 5,
      retry: {
        ...(options.maxRetryAfterMs === undefined ? {} : { maxRetryAfterMs: options.maxRetryAfterMs }),
        ...(options.minRetryDelayMs === undefined ? {} : { minDelayMs: options.minRetryDelayMs }),
      },
      limiter,
      ...(defaults === undefined ? {} : { defaults }),
      ...(options.sleep ? { sleep: options.sleep } : {}),
      ...(options.random ? { random: options.random } : {}),
    });
  try {
    for (const binding of options.bindings) {
      if (roles.find(binding.role)?.kind === 'embedding') {
        const spec = parseModelSpec(binding.spec);
        if (options.resolveEmbeddingModel === undefined) {
          throw new ModelSpecError(
            `role "${binding.role}" is an embedding model, and no embedding providers were given to resolve ${spec.provider}:${spec.modelId}`,
          );
        }
        const model = await options.resolveEmbeddingModel({
          spec,
          apiKey: () => {
            const provider = findProvider(spec.provider, options.registry);
            return provider === undefined ? undefined : apiKeyFromEnv({ provider, spec, env: options.env });
          },
          ...(options.fetch ? { fetch: options.fetch } : {}),
          maxRetries: 0,
          probeRetries: options.maxRetries ?? 5,
        });
        const endpoints = embeddingEndpoints({ spec, registry: options.registry });
        embeddings[binding.role] = wrapEmbeddingModel({
          model,
          // Local embedders (no endpoint) need no connection limit.
          middleware: middlewareFor({
            endpoints,
            limiter: endpoints[0] === undefined ? null : limiterFor(endpoints[0]),
          }),
        });
        descriptions[binding.role] = [
          {
            provider: spec.provider,
            modelId: spec.modelId,
            endpoints,
            settings: { embedderId: model.id, dimension: model.dimension },
          },
        ];
        continue;
      }
      const resolved = await resolveChatModel({
        spec: binding.spec,
        env: options.env,
        timeoutMs: options.timeoutMs ?? 600_000,
        limiterFor,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.openAiCompatibleClient ? { client: options.openAiCompatibleClient } : {}),
        ...(options.registry ? { registry: options.registry } : {}),
      });
      const { spec } = resolved;
      const builtIn = roleDefaults(roles.find(binding.role), resolved.provider);
      const wrapped = wrapChatModel({
        model: resolved.model,
        middleware: middlewareFor({ endpoints: resolved.endpoints, limiter: resolved.limiter, defaults: builtIn }),
      });
      const roleBindings = bindings[binding.role] ?? [];
      bindings[binding.role] = [...roleBindings, wrapped];
      const roleDescriptions = descriptions[binding.role] ?? [];
      descriptions[binding.role] = roleDescriptions;
      roleDescriptions.push({
        provider: spec.provider,
        modelId: spec.modelId,
        endpoints: resolved.endpoints,
        settings: { ...builtIn, ...roleSettings[binding.role] },
      });
    }
  } catch (error) {
    cache?.close();
    throw error;
  }
  return {
    factory: createModelRolesFactory({ roles, bindings, embeddings, settings: roleSettings }),
    describe: () =>
      Object.fromEntries(
        Object.entries(descriptions).map(([role, list]) => [
          role,
          list.map((description) => ({
            ...description,
            endpoints: [...description.endpoints],
            settings: { ...description.settings },
          })),
        ]),
      ),
    ledger,
    close: () => cache?.close(),
  };
}
