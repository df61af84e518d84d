import type { CallContext, ModelMiddleware } from '../spec/chat-model.js';
import type { EmbeddingModel, EmbedRequest, EmbedResult } from '../spec/embedding-model.js';
import { beginCallTrace, type CallTrace } from './call-trace.js';

/** An embedding model with its cross-cutting behaviour applied; callers pass who is calling. */
export type WrappedEmbeddingModel = {
  readonly provider: string;
  readonly modelId: string;
  readonly id: string;
  readonly dimension: number;
  embed(request: EmbedRequest, context: CallContext): Promise<EmbedResult>;
};

/**
 * Composes the `wrapEmbed` layers of `middleware` around an embedding adapter, in the order
 * `wrapChatModel` uses (`middleware[0]` outermost); layers without `wrapEmbed` (default
 * settings, reasoning extraction) are skipped. Each call gets its own `CallContext` copy and trace.
 */
export function wrapEmbeddingModel(options: {
  model: EmbeddingModel;
  middleware: readonly ModelMiddleware[];
}): WrappedEmbeddingModel {
  const { model } = options;
  const layers = options.middleware.flatMap((layer) =>
    layer.wrapEmbed === undefined ? [] : [layer.wrapEmbed.bind(layer)],
  );
  const count = layers.length;
  // As in `wrapChatModel`: one step function, only each layer's `next` made per call.
  const step = (index: number, request: EmbedRequest, context: CallContext, trace: CallTrace): Promise<EmbedResult> => {
    if (index === count) {
      trace.attempts++;
      return model.doEmbed(request);
    }
    const layer = layers[index] as NonNullable<ModelMiddleware['wrapEmbed']>;
    return layer({ request, context, model, next: (next) => step(index + 1, next, context, trace) });
  };
  return {
    provider: model.provider,
    modelId: model.modelId,
    id: model.id,
    dimension: model.dimension,
    embed(request, context) {
      const call = beginCallTrace(context);
      return step(0, request, call.context, call.trace);
    },
  };
}
