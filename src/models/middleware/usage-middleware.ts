import type { ModelMiddleware } from '../../spec/chat-model.js';
import { callTraceOf } from '../call-trace.js';
import type { UsageLedger } from '../usage-ledger.js';

/**
 * Checks the run's budget before each provider-bound call (throwing `BudgetExceededError`
 * once it is reached) and records the call's tokens and cost by role afterwards (priced for the
 * model's `endpoints` when given, see `createPriceTable`). It sits
 * inside the cache, so cache hits neither spend budget nor pass here.
 */
export function usageMiddleware(options: { ledger: UsageLedger; endpoints?: readonly string[] }): ModelMiddleware {
  const { ledger, endpoints } = options;
  return {
    id: 'usage',
    async wrapGenerate({ request, context, model, next }) {
      ledger.assertWithinBudget();
      const result = await next(request);
      const { costUsd } = ledger.recordCall({
        role: context.role,
        provider: model.provider,
        modelId: model.modelId,
        ...(endpoints === undefined ? {} : { endpoints }),
        usage: result.usage,
      });
      callTraceOf(context).costUsd = costUsd;
      return result;
    },
  };
}
