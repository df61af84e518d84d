import type { CallContext, ModelMiddleware } from '../../spec/chat-model.js';
import { callTraceOf } from '../call-trace.js';
import type { ResponseCache } from '../response-cache.js';
import { embeddingCacheKey, responseCacheKey } from '../response-cache-key.js';

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
 * stored; errors and `finishReason: 'error'` results are not. Embedding calls are answered the
 * same way, keyed by model, endpoints, texts and namespace (an embedding does not vary by epoch).
 */
export function cacheMiddleware(options: CacheMiddlewareOptions): ModelMiddleware {
  const namespace = options.namespace ?? '';
  /** The one lookup-or-call path of both kinds of call. */
  const answer = async <Result>({
    context,
    hit,
    fresh,
    store,
  }: {
    context: CallContext;
    hit: () => Result | undefined;
    fresh: () => Promise<Result>;
    store: (result: Result) => void;
  }): Promise<Result> => {
    const found = options.reads ? hit() : undefined;
    if (found !== undefined) {
      const trace = callTraceOf(context);
      trace.cached = true;
      trace.costUsd = 0;
      options.onHit?.(context);
      return found;
    }
    const result = await fresh();
    store(result);
    return result;
  };
  const key = { endpointSet: options.endpointSet, namespace };
  return {
    id: 'cache',
    wrapGenerate({ request, context, model, next }) {
      const cacheKey = responseCacheKey({
        ...key,
        provider: model.provider,
        modelId: model.modelId,
        request,
        epoch: context.epoch,
      });
      return answer({
        context,
        hit: () => options.cache.get(cacheKey),
        fresh: () => next(request),
        store: (result) => {
          if (result.finishReason !== 'error') options.cache.set(cacheKey, result);
        },
      });
    },
    wrapEmbed({ request, context, model, next }) {
      const cacheKey = embeddingCacheKey({
        ...key,
        provider: model.provider,
        modelId: model.modelId,
        embedderId: model.id,
        texts: request.texts,
      });
      return answer({
        context,
        hit: () => options.cache.getEmbeddings(cacheKey),
        fresh: () => next(request),
        store: (result) => options.cache.setEmbeddings(cacheKey, result),
      });
    },
  };
}
