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
  const counted = async <Result>({
    context,
    model,
    call,
    usageOf,
  }: {
    context: CallContext;
    model: { provider: string; modelId: string };
    call: () => Promise<Result>;
    usageOf: (result: Result) => TokenUsage;
  }): Promise<Result> => {
    ledger.assertWithinBudget();
    const result = await call();
    const { costUsd } = ledger.recordCall({
      role: context.role,
      provider: model.provider,
      modelId: model.modelId,
      ...(endpoints === undefined ? {} : { endpoints }),
      usage: usageOf(result),
    });
    callTraceOf(context).costUsd = costUsd;
    return result;
  };
  return {
    id: 'usage',
    wrapGenerate: ({ request, context, model, next }) =>
      counted({ context, model, call: () => next(request), usageOf: (result) => result.usage }),
    wrapEmbed: ({ request, context, model, next }) =>
      counted({
        context,
        model,
        call: () => next(request),
        usageOf: (result) => ({ inputTokens: result.usage.inputTokens, outputTokens: 0 }),
      }),
  };
}
