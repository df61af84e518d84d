import type { CallContext, ChatModel, GenerateRequest, GenerateResult, ModelMiddleware } from '../spec/chat-model.js';
import { beginCallTrace, type CallTrace } from './call-trace.js';

/** A model with its cross-cutting behaviour applied; callers pass who is calling. */
export type WrappedChatModel = {
  readonly provider: string;
  readonly modelId: string;
  generate(request: GenerateRequest, context: CallContext): Promise<GenerateResult>;
};

/**
 * Composes middleware around an adapter. `middleware[0]` is the outermost layer (it sees the
 * request first); the last one wraps `model.doGenerate`. Each call gets its own `CallContext`
 * copy carrying a `CallTrace` (see `call-trace.ts`); the adapter call counts one attempt.
 */
export function wrapChatModel(options: { model: ChatModel; middleware: readonly ModelMiddleware[] }): WrappedChatModel {
  const { model } = options;
  const layers = [...options.middleware];
  const count = layers.length;
  // One step function for every call (its state passed along, not captured in a per-call closure):
  // only each layer's `next` is made per call, as the middleware interface needs it.
  const step = (
    index: number,
    request: GenerateRequest,
    context: CallContext,
    trace: CallTrace,
  ): Promise<GenerateResult> => {
    if (index === count) {
      trace.attempts++;
      return model.doGenerate(request);
    }
    return (layers[index] as ModelMiddleware).wrapGenerate({
      request,
      context,
      model,
      next: (nextRequest) => step(index + 1, nextRequest, context, trace),
    });
  };
  return {
    provider: model.provider,
    modelId: model.modelId,
    generate(request, context) {
      const call = beginCallTrace(context);
      return step(0, request, call.context, call.trace);
    },
  };
}
