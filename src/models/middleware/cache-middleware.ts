import type { CallContext, ModelMiddleware } from '../../spec/chat-model.js';
import { callTraceOf } from '../call-trace.js';
import { type ResponseCache, responseCacheKey } from '../response-cache.js';

/** Options of `cacheMiddleware`. */
export type CacheMiddlewareOptions = {
  cache: ResponseCache;
  /** `false` (`--no-cache`) skips lookups but still stores fresh results. */
  reads: boolean;
  /** The model's base URLs (part of the key; redacted there). */
  endpointSet: readonly string[];
  /** Separates otherwise identical calls that must not share answers (default ''). */
  namespace?: string;
  /** Told about every hit, e.g. to count cached calls in the usage ledger. */
  onHit?: (context: CallContext) => void;
};

/**
 * Answers a call from the response cache when an identical one (same model, endpoints,
 * messages, tools, settings, schema, sample ordinal, epoch and namespace) succeeded before.
 * Hits are flagged `cached` with zero cost in the call's trace. Fresh successful results are
 * stored; errors and `finishReason: 'error'` results are not.
 */
export function cacheMiddleware(options: CacheMiddlewareOptions): ModelMiddleware {
  const namespace = options.namespace ?? '';
  return {
    id: 'cache',
    async wrapGenerate({ request, context, model, next }) {
      const key = responseCacheKey({
        provider: model.provider,
        modelId: model.modelId,
        endpointSet: options.endpointSet,
        request,
        epoch: context.epoch,
        namespace,
      });
      if (options.reads) {
        const hit = options.cache.get(key);
        if (hit) {
          const trace = callTraceOf(context);
          trace.cached = true;
          trace.costUsd = 0;
          options.onHit?.(context);
          return hit;
        }
      }
      const result = await next(request);
      if (result.finishReason !== 'error') options.cache.set(key, result);
      return result;
    },
  };
}
