import type { CallContext, ModelMiddleware, TokenUsage } from '../../spec/chat-model.js';
import { callTraceOf } from '../call-trace.js';
import type { UsageLedger } from '../usage-ledger.js';

/**
 * Checks the run's budget before each provider-bound call (throwing `BudgetExceededError`
 * once it is reached) and records the call's tokens and cost by role afterwards (priced for the
 * model's `endpoints` when given, see `createPriceTable`). It sits
 * inside the cache, so cache hits neither spend budget nor pass here. Embedding calls are checked
 * and recorded the same way (their input tokens, no output tokens).
 */
export function usageMiddleware(options: { ledger: UsageLedger; endpoints?: readonly string[] }): ModelMiddleware {
  const { ledger, endpoints } = options;
  /** Records a provider-bound call's usage and puts its cost in the call's trace. */
  const record = (context: CallContext, model: { provider: string; modelId: string }, usage: TokenUsage) => {
    const call =
      endpoints === undefined
        ? { role: context.role, provider: model.provider, modelId: model.modelId, usage }
        : { role: context.role, provider: model.provider, modelId: model.modelId, endpoints, usage };
    callTraceOf(context).costUsd = ledger.recordCall(call).costUsd;
  };
  return {
    id: 'usage',
    async wrapGenerate({ request, context, model, next }) {
      ledger.assertWithinBudget();
      const result = await next(request);
      record(context, model, result.usage);
      return result;
    },
    async wrapEmbed({ request, context, model, next }) {
      ledger.assertWithinBudget();
      const result = await next(request);
      record(context, model, { inputTokens: result.usage.inputTokens, outputTokens: 0 });
      return result;
    },
  };
}
