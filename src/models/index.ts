/**
 * models/: provider adapters, model spec parsing, roles and the wrapper that adds events,
 * caching, usage accounting, retries and rate limiting to every model call.
 */
/** The AI SDK 6 provider model type (specification V3) that `aiSdkChatModel` adapts. */
export type { LanguageModelV3 } from '@ai-sdk/provider';
export { AdaptiveLimiter, type AdaptiveLimiterOptions } from './adaptive-limiter.js';
export {
  type AiSdkChatModelOptions,
  aiSdkChatModel,
  fromSdkResult,
  toCallOptions,
  toSdkPrompt,
} from './ai-sdk-chat-model.js';
export { beginCallTrace, type CallTrace, callTraceOf } from './call-trace.js';
export { type CheckModelRolesOptions, checkModelRoles } from './check-model-roles.js';
export { createEndpointPool, type EndpointPool, type PoolEndpoint } from './endpoint-pool.js';
export { type LeanChatModelOptions, leanChatModel } from './lean-chat-model.js';
export { createLlamaCppChatModel, LLAMA_CPP_INSTALL, LLAMA_CPP_PACKAGE } from './llamacpp-chat-model.js';
export { type CacheMiddlewareOptions, cacheMiddleware } from './middleware/cache-middleware.js';
export { defaultSettingsMiddleware } from './middleware/default-settings-middleware.js';
export {
  type ExtractedReasoning,
  extractReasoning,
  extractReasoningMiddleware,
} from './middleware/extract-reasoning-middleware.js';
export { rateLimitMiddleware } from './middleware/rate-limit-middleware.js';
export { recordEventsMiddleware } from './middleware/record-events-middleware.js';
export {
  defaultSleep,
  type RetryOptions,
  retryDelayMs,
  retryMiddleware,
  type Sleep,
} from './middleware/retry-middleware.js';
export { usageMiddleware } from './middleware/usage-middleware.js';
export { createModelRolesFactory, type ModelRolesFactoryOptions } from './model-roles.js';
export { describeNetworkFailure, type NetworkFailure, type NetworkFailureKind } from './network-failure.js';
export {
  createNodeHttpFetch,
  type NodeHttpFetch,
  type NodeHttpFetchOptions,
  sharedNodeHttpFetch,
} from './node-http-fetch.js';
export { onAbort } from './on-abort.js';
export { MODEL_SPEC_SYNTAX, parseModelSpec, parseRoleBinding, redactEndpoint } from './parse-model-spec.js';
export {
  checkBudgetPrices,
  createPriceTable,
  DEFAULT_PRICES,
  FREE_PROVIDERS,
  type ModelPrice,
  missingPriceError,
  modelPriceSchema,
  normalizePriceKey,
  type PricedModel,
  type PriceOverrides,
  type PriceTable,
  priceOfSpec,
  priceOverridesSchema,
  unpricedModels,
} from './price-table.js';
export {
  offeredModelsText,
  type ProbeCause,
  type ProbeContext,
  type ProbeEndpointOptions,
  type ProbeFailure,
  type ProbeResult,
  type ProviderProbe,
  probeCauseWords,
  probeEndpoint,
  probeFix,
} from './probe-endpoint.js';
export {
  isProviderError,
  isRetryableProviderError,
  kindOfStatus,
  parseRetryAfterMs,
  toProviderError,
} from './provider-error.js';
export {
  findProvider,
  type OpenAiCompatibleClient,
  type ProviderCreateOptions,
  type ProviderDefinition,
  providerRegistry,
} from './provider-registry.js';
export { MOCK_REFUSAL } from './providers/mock-provider.js';
export {
  apiKeyFromEnv,
  type CheckedModelSpec,
  checkModelSpec,
  type ResolveChatModelOptions,
  type ResolvedChatModel,
  resolveChatModel,
} from './resolve-chat-model.js';
export {
  type EmbeddingModelResolver,
  type ResolvedModelRoles,
  type ResolveModelRolesOptions,
  resolveModelRoles,
} from './resolve-model-roles.js';
export {
  type CacheKeyInput,
  canonicalJson,
  type EmbeddingCacheKeyInput,
  embeddingCacheKey,
  ResponseCache,
  responseCacheKey,
} from './response-cache.js';
export { checkRepeatedRoles, createRoleCatalog, type RoleCatalog } from './role-catalog.js';
export { schemelessBaseURL } from './schemeless-base-url.js';
export { type StandardMiddlewareOptions, standardMiddleware } from './standard-middleware.js';
export * from './testing/index.js';
export { type RoleUsage, UsageLedger, type UsageLedgerOptions } from './usage-ledger.js';
export { type WrappedChatModel, wrapChatModel } from './wrap-chat-model.js';
export { type WrappedEmbeddingModel, wrapEmbeddingModel } from './wrap-embedding-model.js';
