import type { CallContext, ChatModel, GenerateRequest, GenerateResult, ModelMiddleware } from '../spec/chat-model.js';
import { beginCallTrace } from './call-trace.js';

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
  return {
    provider: model.provider,
    modelId: model.modelId,
    generate(request, context) {
      const { context: callContext, trace } = beginCallTrace(context);
      const step = (index: number, current: GenerateRequest): Promise<GenerateResult> => {
        const layer = layers[index];
        if (layer === undefined) {
          trace.attempts++;
          return model.doGenerate(current);
        }
        return layer.wrapGenerate({
          request: current,
          context: callContext,
          model,
          next: (nextRequest) => step(index + 1, nextRequest),
        });
      };
      return step(0, request);
    },
  };
}
