import type { GenerateSettings, ModelMiddleware } from '../spec/chat-model.js';
import type { AdaptiveLimiter } from './adaptive-limiter.js';
import { cacheMiddleware } from './middleware/cache-middleware.js';
import { defaultSettingsMiddleware } from './middleware/default-settings-middleware.js';
import { extractReasoningMiddleware } from './middleware/extract-reasoning-middleware.js';
import { rateLimitMiddleware } from './middleware/rate-limit-middleware.js';
import { recordEventsMiddleware } from './middleware/record-events-middleware.js';
import { type RetryOptions, retryMiddleware, type Sleep } from './middleware/retry-middleware.js';
import { usageMiddleware } from './middleware/usage-middleware.js';
import type { ResponseCache } from './response-cache.js';
import type { UsageLedger } from './usage-ledger.js';

/** Options of `standardMiddleware`. */
export type StandardMiddlewareOptions = {
  /** `null` disables caching entirely (no reads, no writes). */
  cache: ResponseCache | null;
  /** `false` for `--no-cache`: write but do not read. */
  cacheReads: boolean;
  cacheNamespace?: string;
  /** The model's base URLs (redacted), for the cache key and endpoint-specific prices. */
  endpointSet: readonly string[];
  ledger: UsageLedger;
  maxRetries: number;
  retry?: Omit<RetryOptions, 'maxRetries' | 'sleep' | 'random'>;
  sleep?: Sleep;
  random?: () => number;
  /** Clock for event durations. */
  now?: () => number;
  /** The endpoint's limiter; `null` when the model limits per endpoint itself (an endpoint pool). */
  limiter: AdaptiveLimiter | null;
  /** The role's default settings (see `defaultSettingsMiddleware`); none when absent or empty. */
  defaults?: GenerateSettings;
};

/**
 * The documented middleware stack, outermost first:
 * default-settings → extract-reasoning → record-events → cache → usage → retry → rate-limit →
 * adapter. Chat and embedding models share it (`wrapChatModel`, `wrapEmbeddingModel`); embedding
 * calls pass the record-events, cache, usage, retry and rate-limit layers.
 */
export function standardMiddleware(options: StandardMiddlewareOptions): ModelMiddleware[] {
  const { ledger } = options;
  const layers: ModelMiddleware[] = [];
  if (options.defaults !== undefined && Object.keys(options.defaults).length > 0) {
    layers.push(defaultSettingsMiddleware(options.defaults));
  }
  layers.push(extractReasoningMiddleware());
  layers.push(recordEventsMiddleware(options.now ? { now: options.now } : {}));
  if (options.cache) {
    layers.push(
      cacheMiddleware({
        cache: options.cache,
        reads: options.cacheReads,
        endpointSet: options.endpointSet,
        ...(options.cacheNamespace === undefined ? {} : { namespace: options.cacheNamespace }),
        onHit: (context) => ledger.recordCachedCall(context.role),
      }),
    );
  }
  layers.push(usageMiddleware({ ledger, endpoints: options.endpointSet }));
  layers.push(
    retryMiddleware({
      ...options.retry,
      maxRetries: options.maxRetries,
      ...(options.sleep ? { sleep: options.sleep } : {}),
      ...(options.random ? { random: options.random } : {}),
    }),
  );
  if (options.limiter) layers.push(rateLimitMiddleware({ limiter: options.limiter }));
  return layers;
}
