import type { CallContext, ModelMiddleware } from '../../spec/chat-model.js';
import type { AdaptiveLimiter } from '../adaptive-limiter.js';
import { callTraceOf } from '../call-trace.js';

/**
 * The innermost layer for a single-endpoint model: each attempt waits for a slot in the
 * endpoint's adaptive limiter, and a 429 shrinks that limiter. A retry (an attempt of a call that
 * already reached the adapter) waits ahead of new work, so a call that was turned away is not
 * starved by calls that have not started yet. Share one limiter per endpoint across roles, chat and
 * embedding models alike. (An endpoint pool limits each of its endpoints itself instead.)
 */
export function rateLimitMiddleware(options: { limiter: AdaptiveLimiter }): ModelMiddleware {
  const { limiter } = options;
  const limited = <Result>(context: CallContext, signal: AbortSignal | undefined, task: () => Promise<Result>) =>
    callTraceOf(context).attempts > 0 ? limiter.runRetry(task, signal) : limiter.run(task, signal);
  return {
    id: 'rate-limit',
    wrapGenerate: ({ request, context, next }) =>
      limited(context, request.abortSignal ?? context.signal, () => next(request)),
    wrapEmbed: ({ request, context, next }) =>
      limited(context, request.abortSignal ?? context.signal, () => next(request)),
  };
}
