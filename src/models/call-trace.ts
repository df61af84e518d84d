import type { CallContext } from '../spec/chat-model.js';

/**
 * What the inner layers of one logical call tell the outer ones (the events middleware):
 * how many times the adapter was called, whether the cache answered, and the cost.
 * `wrapChatModel` creates one per call and attaches it to that call's own context object.
 */
export type CallTrace = {
  /** Adapter invocations (0 for a cache hit, 1 + retries otherwise). */
  attempts: number;
  /** True when the response came from the cache. */
  cached: boolean;
  /** Cost in USD; `null` when unknown or when no usage layer ran. */
  costUsd: number | null;
};

/**
 * The key of a call context's trace. A property of the per-call context copy rather than an entry
 * of a `WeakMap`: every model call makes one, and thousands of weak entries in flight cost the
 * garbage collector more than the calls themselves (ephemeron tables are rescanned on every GC).
 */
const TRACE: unique symbol = Symbol('confidant.callTrace');

type TracedContext = CallContext & { [TRACE]?: CallTrace };

/** Starts a call: a fresh context object (so concurrent calls never share a trace) and its trace. */
export function beginCallTrace(context: CallContext): { context: CallContext; trace: CallTrace } {
  const trace: CallTrace = { attempts: 0, cached: false, costUsd: null };
  const callContext: TracedContext = { ...context, [TRACE]: trace };
  return { context: callContext, trace };
}

/**
 * The trace of the call a middleware is handling. Outside `wrapChatModel` (e.g. a middleware
 * tested on its own) it returns a throwaway trace, so middleware never needs to null-check.
 */
export function callTraceOf(context: CallContext): CallTrace {
  return (context as TracedContext)[TRACE] ?? { attempts: 0, cached: false, costUsd: null };
}
