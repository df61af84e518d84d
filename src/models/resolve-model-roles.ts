import { z } from 'zod';
import type { GenerateRequest, GenerateSettings, ModelRolesFactory } from '../spec/chat-model.js';
import type { Embedder } from '../spec/embedder.js';
import { ModelSpecError } from '../spec/errors.js';
import type { ModelDescription, ModelSpec, RoleBinding } from '../spec/model-spec.js';
import { AdaptiveLimiter } from './adaptive-limiter.js';
import type { Sleep } from './middleware/retry-middleware.js';
import { createModelRolesFactory } from './model-roles.js';
import { redactEndpoint } from './parse-model-spec.js';
import { checkBudgetPrices, createPriceTable, type PriceOverrides } from './price-table.js';
import { findProvider, type ProviderDefinition } from './provider-registry.js';
import { resolveChatModel } from './resolve-chat-model.js';
import { ResponseCache } from './response-cache.js';
import { isKnownRole, isRepeatableRole, KNOWN_ROLES } from './roles.js';
import { standardMiddleware } from './standard-middleware.js';
import { UsageLedger } from './usage-ledger.js';
import { type WrappedChatModel, wrapChatModel } from './wrap-chat-model.js';

/** Built-in judge defaults: deterministic decoding, and a fixed seed where the provider honours one. */
export const JUDGE_DEFAULT_SETTINGS: GenerateSettings = { temperature: 0 };
export const JUDGE_DEFAULT_SEED = 0;

const settingsSchema = z
  .object({
    temperature: z.coerce.number().min(0),
    topP: z.coerce.number().gt(0).max(1),
    maxOutputTokens: z.coerce.number().int().positive(),
    seed: z.coerce.number().int(),
    stop: z.union([z.string().transform((stop) => [stop]), z.array(z.string())]),
  })
  .partial()
  .strict();

/** Options of `resolveModelRoles` (the CLI maps its flags and environment onto these). */
export type ResolveModelRolesOptions = {
  /** Chat-model bindings; an `embedder` binding is rejected (the caller resolves it, see `embedder`). */
  bindings: readonly RoleBinding[];
  /**
   * The run's `embedder` role, already resolved by the caller (retrieval's `resolveEmbedder`
   * lives above models/); every sample's `ModelRoles.embedder()` returns it.
   */
  embedder?: Embedder;
  /** The spec `embedder` was resolved from, for the header (provider, model, redacted endpoint). */
  embedderSpec?: ModelSpec;
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
  /** Client timeout per HTTP request (default 10 min). */
  timeoutMs?: number;
  fetch?: typeof fetch;
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
  registry?: readonly ProviderDefinition[];
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

function parseRoleSettings(role: string, raw: Record<string, unknown>): GenerateSettings {
  const parsed = settingsSchema.safeParse(raw);
  if (parsed.success) return definedOnly(parsed.data);
  const problems = parsed.error.issues
    .map((issue) => `${issue.path.length ? `${role}.${issue.path.join('.')}` : role}: ${issue.message}`)
    .join('; ');
  throw new ModelSpecError(
    `invalid --model-setting for role "${role}": ${problems}; known settings: temperature, topP, maxOutputTokens, seed, stop`,
  );
}

function definedOnly(settings: GenerateSettings): GenerateSettings {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
}

function unknownRole(role: string, where: string): ModelSpecError {
  return new ModelSpecError(`unknown role "${role}" in ${where}; known roles: ${KNOWN_ROLES.join(', ')}`);
}

/** Adds per-model defaults underneath whatever settings the request carries. */
function withDefaults(wrapped: WrappedChatModel, defaults: GenerateSettings): WrappedChatModel {
  return {
    provider: wrapped.provider,
    modelId: wrapped.modelId,
    generate: (request: GenerateRequest, context) =>
      wrapped.generate({ ...request, settings: { ...defaults, ...request.settings } }, context),
  };
}

/**
 * The header's description of the embedder: from its spec when given (provider, model, the one
 * redacted endpoint it calls), else from its id (`provider:model…`). Never holds a key.
 */
function describeEmbedder({
  embedder,
  spec,
  registry,
}: {
  embedder: Embedder;
  spec: ModelSpec | undefined;
  registry: readonly ProviderDefinition[] | undefined;
}): ModelDescription {
  const settings = { embedderId: embedder.id, dimension: embedder.dimension };
  if (spec === undefined) {
    const colon = embedder.id.indexOf(':');
    return colon < 0
      ? { provider: embedder.id, modelId: embedder.id, endpoints: [], settings }
      : { provider: embedder.id.slice(0, colon), modelId: embedder.id.slice(colon + 1), endpoints: [], settings };
  }
  // Embedders call the first base URL only (or the provider's default one).
  const url = spec.baseURLs[0] ?? findProvider(spec.provider, registry)?.defaultBaseURL;
  return {
    provider: spec.provider,
    modelId: spec.modelId,
    endpoints: url === undefined ? [] : [redactEndpoint(url)],
    settings,
  };
}

/**
 * Resolves every `--model` binding into a wrapped model (events → cache → usage → retry →
 * rate limit → adapter) and returns the per-sample roles factory, a secret-free description
 * for the run header, the run's usage ledger and a `close`. One limiter is shared per endpoint
 * across roles; one cache and one ledger serve all models. Unknown roles, repeated non-judge
 * roles and bad settings are `ModelSpecError`s; a cost budget with an unpriced model is a
 * `PlanValidationError` naming every such model and the `--price` flag to add. An `embedder` binding is a `ModelSpecError` too: embedders are not chat
 * models, so the caller resolves them and passes the result as `embedder` (described under role
 * `embedder`; its calls are not cached or counted in the ledger).
 */
export async function resolveModelRoles(options: ResolveModelRolesOptions): Promise<ResolvedModelRoles> {
  const seen = new Set<string>();
  for (const { role } of options.bindings) {
    if (!isKnownRole(role)) throw unknownRole(role, `--model ${role}=…`);
    if (role === 'embedder') {
      throw new ModelSpecError(
        'role "embedder" is an embedding model, not a chat model: resolve it with resolveEmbedder and pass it as the `embedder` option, not as a binding',
      );
    }
    if (seen.has(role) && !isRepeatableRole(role)) {
      throw new ModelSpecError(
        `role "${role}" is bound twice; only judge (an ensemble) and agent-<id> seats (a model grid) may be given several models`,
      );
    }
    seen.add(role);
  }
  const roleSettings: Record<string, GenerateSettings> = {};
  for (const [role, raw] of Object.entries(options.settings ?? {})) {
    if (!isKnownRole(role)) throw unknownRole(role, `--model-setting ${role}.…`);
    roleSettings[role] = parseRoleSettings(role, raw);
  }

  checkBudgetPrices({
    bindings: options.bindings,
    prices: options.prices,
    maxCostUsd: options.maxCostUsd,
    ...(options.registry ? { registry: options.registry } : {}),
  });
  const prices = createPriceTable(options.prices ? { overrides: options.prices } : {});
  const ledger = new UsageLedger({
    prices,
    ...(options.maxCostUsd === undefined ? {} : { maxCostUsd: options.maxCostUsd }),
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
  });
  const limiters = new Map<string, AdaptiveLimiter>();
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
  const descriptions: Record<string, ModelDescription[]> = {};
  try {
    for (const binding of options.bindings) {
      const resolved = await resolveChatModel({
        spec: binding.spec,
        env: options.env,
        timeoutMs: options.timeoutMs ?? 600_000,
        limiterFor,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.registry ? { registry: options.registry } : {}),
      });
      const { spec } = resolved;
      let wrapped = wrapChatModel({
        model: resolved.model,
        middleware: standardMiddleware({
          cache,
          cacheReads: options.cacheReads,
          ...(options.cacheNamespace === undefined ? {} : { cacheNamespace: options.cacheNamespace }),
          endpointSet: resolved.endpoints,
          ledger,
          maxRetries: options.maxRetries ?? 5,
          limiter: resolved.limiter,
          ...(options.sleep ? { sleep: options.sleep } : {}),
          ...(options.random ? { random: options.random } : {}),
        }),
      });
      const builtIn: GenerateSettings =
        binding.role === 'judge'
          ? { ...JUDGE_DEFAULT_SETTINGS, ...(resolved.provider.supportsSeed ? { seed: JUDGE_DEFAULT_SEED } : {}) }
          : {};
      if (Object.keys(builtIn).length > 0) wrapped = withDefaults(wrapped, builtIn);
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
    if (options.embedder !== undefined) {
      descriptions.embedder = [
        describeEmbedder({ embedder: options.embedder, spec: options.embedderSpec, registry: options.registry }),
      ];
    }
  } catch (error) {
    cache?.close();
    throw error;
  }
  return {
    factory: createModelRolesFactory({
      bindings,
      settings: roleSettings,
      ...(options.embedder === undefined ? {} : { embedder: options.embedder }),
    }),
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
