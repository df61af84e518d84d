import type { AdaptiveLimiter } from '../models/adaptive-limiter.js';
import { type CheckModelRolesOptions, checkModelRoles } from '../models/check-model-roles.js';
import { type OpenAiCompatibleClient, type ProviderDefinition, providerRegistry } from '../models/provider-registry.js';
import { type ResolvedModelRoles, resolveModelRoles } from '../models/resolve-model-roles.js';
import { checkEmbedderSpec, resolveEmbeddingModel } from '../retrieval/resolve-embedder.js';
import type { RunPlan } from '../spec/run-plan.js';
import type { PreparedRun } from './prepare-run.js';
import { MODEL_ROLES } from './role-registry.js';

/** Where model responses are cached (`dir: null`: nowhere), and whether the cache is read. */
export type CacheChoice = { dir: string | null; reads: boolean };

/** The inputs of `resolvePlanModels`. */
export type ResolvePlanModelsOptions = {
  plan: RunPlan;
  prepared: PreparedRun;
  /** Where API keys are read from, under the provider registry's variable names. */
  env: Record<string, string | undefined>;
  cache: CacheChoice;
  /** Providers the bindings may name besides the built-in ones. */
  providers?: readonly ProviderDefinition[];
  /** Per-endpoint limiters shared with other runs (see `ResolveModelRolesOptions.limiters`). */
  limiters?: Map<string, AdaptiveLimiter>;
  /** The client of OpenAI-compatible providers (see `ResolveModelRolesOptions.openAiCompatibleClient`). */
  client?: OpenAiCompatibleClient;
};

/** Where a run's models come from, as `evaluate`, `resume` and `rescore` are given it. */
export type ModelSourceOptions = {
  env?: Record<string, string | undefined>;
  providers?: readonly ProviderDefinition[];
  limiters?: Map<string, AdaptiveLimiter>;
  openAiCompatibleClient?: OpenAiCompatibleClient;
};

/** The `env`, `providers`, `limiters` and `client` of `resolvePlanModels` from a run entry point's options. */
export function modelSourcesOf(
  options: ModelSourceOptions,
): Pick<ResolvePlanModelsOptions, 'env' | 'providers' | 'limiters' | 'client'> {
  return {
    env: options.env ?? {},
    ...(options.providers === undefined ? {} : { providers: options.providers }),
    ...(options.limiters === undefined ? {} : { limiters: options.limiters }),
    ...(options.openAiCompatibleClient === undefined ? {} : { client: options.openAiCompatibleClient }),
  };
}

/**
 * Resolves the plan's model roles (chat and embedding, e.g. `--model embedder=<spec>`) with the
 * suite's default settings under the user's, and API keys from `env`.
 */
export async function resolvePlanModels({
  plan,
  prepared,
  env,
  cache,
  providers,
  limiters,
  client,
}: ResolvePlanModelsOptions): Promise<ResolvedModelRoles> {
  return resolveModelRoles({
    roles: MODEL_ROLES,
    bindings: prepared.modelBindings,
    resolveEmbeddingModel,
    settings: planSettings({ plan, prepared }),
    env,
    cacheDir: cache.dir,
    cacheReads: cache.reads,
    maxRetries: plan.maxRetries,
    timeoutMs: plan.requestTimeoutMs,
    maxRetryAfterMs: plan.maxRetryAfterMs,
    maxConnections: plan.maxConnections,
    ...(plan.maxCostUsd === undefined ? {} : { maxCostUsd: plan.maxCostUsd }),
    ...(plan.maxTokens === undefined ? {} : { maxTokens: plan.maxTokens }),
    ...(plan.prices === undefined ? {} : { prices: plan.prices }),
    ...(limiters === undefined ? {} : { limiters }),
    ...(client === undefined ? {} : { openAiCompatibleClient: client }),
    ...(providers === undefined || providers.length === 0 ? {} : { registry: [...providerRegistry, ...providers] }),
  });
}

/**
 * Checks the plan's model bindings as {@link resolvePlanModels} would (roles, settings, prices,
 * providers, base URLs, API keys from `env`, embedder specs) without creating an adapter, opening
 * the cache or calling anything: what `run --dry-run` refuses. Throws the same user errors.
 */
export function checkPlanModels({
  plan,
  prepared,
  env,
  providers,
  onMissingKey,
}: Pick<ResolvePlanModelsOptions, 'plan' | 'prepared' | 'env' | 'providers'> &
  Pick<CheckModelRolesOptions, 'onMissingKey'>): void {
  checkModelRoles({
    ...(onMissingKey === undefined ? {} : { onMissingKey }),
    roles: MODEL_ROLES,
    bindings: prepared.modelBindings,
    settings: planSettings({ plan, prepared }),
    env,
    checkEmbeddingSpec: checkEmbedderSpec,
    ...(plan.maxCostUsd === undefined ? {} : { maxCostUsd: plan.maxCostUsd }),
    ...(plan.prices === undefined ? {} : { prices: plan.prices }),
    ...(providers === undefined || providers.length === 0 ? {} : { registry: [...providerRegistry, ...providers] }),
  });
}

/** The settings a run applies per role: the suite's defaults under the plan's `modelSettings`. */
export function planSettings({
  plan,
  prepared,
}: {
  plan: RunPlan;
  prepared: Pick<PreparedRun, 'suite' | 'options'>;
}): Record<string, Record<string, unknown>> {
  return mergeSettings(
    prepared.suite.defaultSettings?.(prepared.options, { epochs: plan.epochs }) ?? {},
    plan.modelSettings,
  );
}

/** Suite defaults under the user's values, per role. */
function mergeSettings(
  defaults: Record<string, Record<string, unknown>>,
  user: Record<string, Record<string, unknown>>,
): Record<string, Record<string, unknown>> {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const role of new Set([...Object.keys(defaults), ...Object.keys(user)])) {
    merged[role] = { ...defaults[role], ...user[role] };
  }
  return merged;
}
