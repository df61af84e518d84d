import type { ModelMiddleware } from '../../spec/chat-model.js';
import type { AdaptiveLimiter } from '../adaptive-limiter.js';

/**
 * The innermost layer for a single-endpoint model: each attempt waits for a slot in the
 * endpoint's adaptive limiter, and a 429 shrinks that limiter. Share one limiter per endpoint
 * across roles, chat and embedding models alike. (An endpoint pool limits each of its endpoints
 * itself instead.)
 */
export function rateLimitMiddleware(options: { limiter: AdaptiveLimiter }): ModelMiddleware {
  const { limiter } = options;
  return {
    id: 'rate-limit',
    wrapGenerate: ({ request, context, next }) =>
      limiter.run(() => next(request), request.abortSignal ?? context.signal),
    wrapEmbed: ({ request, context, next }) => limiter.run(() => next(request), request.abortSignal ?? context.signal),
  };
}
