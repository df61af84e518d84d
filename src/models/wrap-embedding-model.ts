import type { CallContext, ModelMiddleware } from '../spec/chat-model.js';
import type { EmbeddingModel, EmbedRequest, EmbedResult } from '../spec/embedding-model.js';
import { beginCallTrace } from './call-trace.js';

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
  return {
    provider: model.provider,
    modelId: model.modelId,
    id: model.id,
    dimension: model.dimension,
    embed(request, context) {
      const { context: callContext, trace } = beginCallTrace(context);
      const step = (index: number, current: EmbedRequest): Promise<EmbedResult> => {
        const layer = layers[index];
        if (layer === undefined) {
          trace.attempts++;
          return model.doEmbed(current);
        }
        return layer({ request: current, context: callContext, model, next: (next) => step(index + 1, next) });
      };
      return step(0, request);
    },
  };
}
