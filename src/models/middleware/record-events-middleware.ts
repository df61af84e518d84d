import type { CallContext, GenerateRequest, GenerateResult, ModelMiddleware } from '../../spec/chat-model.js';
import type { ModelCallEvent } from '../../spec/event.js';
import { callTraceOf } from '../call-trace.js';

type ModelCallInput = Omit<ModelCallEvent, 'id' | 'time'>;

/** An event being built: its members in the order they are stored, the outcome filled in last. */
type PendingModelCall = Omit<ModelCallInput, 'response' | 'usage' | 'error'> & Partial<ModelCallInput>;

/**
 * A call's `model-call` event up to its outcome, built in one pass (every call of a run passes
 * here): members in their stored order (`participantId` after `durationMs`, then the outcome).
 */
function modelCallEvent({
  request,
  context,
  model,
  durationMs,
}: {
  request: GenerateRequest;
  context: CallContext;
  model: { provider: string; modelId: string };
  durationMs: number;
}): PendingModelCall {
  const trace = callTraceOf(context);
  const recorded: ModelCallInput['request'] = {
    // A copy: the event is stored as built (not re-parsed), and a caller may extend its thread.
    messages: [...request.messages],
    settings: { ...request.settings },
  };
  if (request.tools !== undefined) {
    recorded.tools = request.tools.map((tool) => ({ name: tool.name, description: tool.description }));
  }
  if (request.sampleOrdinal !== undefined) recorded.sampleOrdinal = request.sampleOrdinal;
  const event: PendingModelCall = {
    type: 'model-call',
    role: context.role,
    provider: model.provider,
    modelId: model.modelId,
    request: recorded,
    costUsd: trace.costUsd,
    cached: trace.cached,
    attempts: trace.attempts,
    durationMs,
  };
  if (context.participantId !== undefined) event.participantId = context.participantId;
  return event;
}

/** A thrown value as an event's `error`. */
function errorOf(error: unknown): { name: string; message: string } {
  return {
    name: error instanceof Error ? error.name : 'Error',
    message: error instanceof Error ? error.message : String(error),
  };
}

/**
 * The outermost layer: emits exactly one `model-call` event per logical call through
 * `context.emit` (none when the context has no emitter), after cache, retries and rate
 * limiting, with attempts, `cached` and cost taken from the call's `CallTrace`. A failed call
 * is recorded with `response: null` and the error's name and message, then rethrown. A
 * recorded success carries the event's id in `providerMetadata.confidant.modelCallEventId`.
 * Each embedding call is recorded the same way as one `embedding-call` event (texts counted,
 * not stored).
 */
export function recordEventsMiddleware(options: { now?: () => number } = {}): ModelMiddleware {
  const now = options.now ?? (() => performance.now());
  return {
    id: 'record-events',
    async wrapGenerate({ request, context, model, next }) {
      const started = now();
      let result: GenerateResult;
      try {
        result = await next(request);
      } catch (error) {
        const { emit } = context;
        if (emit !== undefined) {
          const event = modelCallEvent({
            request,
            context,
            model,
            durationMs: Math.max(0, Math.round(now() - started)),
          });
          // No response, no usage reported: nothing was billed, so the cost is 0 rather than unknown.
          event.costUsd ??= 0;
          event.response = null;
          event.usage = { inputTokens: null, outputTokens: null };
          event.error = errorOf(error);
          emit(event as ModelCallInput);
        }
        throw error;
      }
      const { emit } = context;
      if (emit === undefined) return result;
      const input = modelCallEvent({ request, context, model, durationMs: Math.max(0, Math.round(now() - started)) });
      input.response = { text: result.text, toolCalls: result.toolCalls, finishReason: result.finishReason };
      input.usage = result.usage;
      const event: { id: string } | undefined = emit(input as ModelCallInput);
      if (!event) return result;
      // Callers such as judges link their own records to this call through its event id.
      return {
        ...result,
        providerMetadata: {
          ...result.providerMetadata,
          confidant: { ...readConfidantMetadata(result.providerMetadata), modelCallEventId: event.id },
        },
      };
    },
    async wrapEmbed({ request, context, model, next }) {
      const started = now();
      const base = () => {
        const trace = callTraceOf(context);
        return {
          type: 'embedding-call' as const,
          role: context.role,
          ...(context.participantId === undefined ? {} : { participantId: context.participantId }),
          provider: model.provider,
          modelId: model.modelId,
          embedderId: model.id,
          dimension: model.dimension,
          texts: request.texts.length,
          characters: request.texts.reduce((total, text) => total + text.length, 0),
          costUsd: trace.costUsd,
          cached: trace.cached,
          attempts: trace.attempts,
          durationMs: Math.max(0, Math.round(now() - started)),
        };
      };
      try {
        const result = await next(request);
        context.emit?.({ ...base(), usage: { inputTokens: result.usage.inputTokens } });
        return result;
      } catch (error) {
        context.emit?.({
          ...base(),
          costUsd: callTraceOf(context).costUsd ?? 0,
          usage: { inputTokens: null },
          error: errorOf(error),
        });
        throw error;
      }
    },
  };
}

function readConfidantMetadata(metadata: Record<string, unknown> | undefined): Record<string, unknown> {
  const value = metadata?.confidant;
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}
