import type { ChatModel, GenerateRequest, GenerateResult } from '../spec/chat-model.js';
import type { AdaptiveLimiter } from './adaptive-limiter.js';

/** One replica of a model: its adapter, its (redacted) base URL and its own limiter. */
export type PoolEndpoint = { endpoint: string; model: ChatModel; limiter: AdaptiveLimiter };

/** A `ChatModel` spread over several endpoints; `inFlight()` is per endpoint, in order. */
export type EndpointPool = ChatModel & {
  readonly endpoints: readonly string[];
  inFlight(): number[];
};

/**
 * Spreads requests for one model over several endpoints (e.g. vLLM replicas). Each request
 * goes to the endpoint with the fewest requests in flight (queued in its limiter or running);
 * ties go round-robin. Each endpoint has its own adaptive limiter, so a replica that answers
 * 429 slows down alone and new work flows to the others.
 */
export function createEndpointPool(options: {
  provider: string;
  modelId: string;
  endpoints: readonly PoolEndpoint[];
}): EndpointPool {
  const members = [...options.endpoints];
  if (members.length === 0) throw new RangeError('an endpoint pool needs at least one endpoint');
  const counts = members.map(() => 0);
  let cursor = 0;

  function pick(): number {
    let best = -1;
    for (let step = 0; step < members.length; step++) {
      const index = (cursor + step) % members.length;
      if (best < 0 || counts[index]! < counts[best]!) best = index;
    }
    cursor = (best + 1) % members.length;
    return best;
  }

  return {
    specificationVersion: 'confidant-1',
    provider: options.provider,
    modelId: options.modelId,
    endpoints: members.map((member) => member.endpoint),
    inFlight: () => [...counts],
    async doGenerate(request: GenerateRequest): Promise<GenerateResult> {
      const index = pick();
      const member = members[index]!;
      counts[index]!++;
      try {
        return await member.limiter.run(() => member.model.doGenerate(request), request.abortSignal);
      } finally {
        counts[index]!--;
      }
    },
  };
}
