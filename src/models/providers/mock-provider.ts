import type { GenerateRequest, VerdictReplies } from '../../spec/chat-model.js';
import { ModelSpecError } from '../../spec/errors.js';
import type { ProviderDefinition } from '../provider-registry.js';
import { MockChatModel, type MockScript, type MockStep } from '../testing/mock-chat-model.js';

/** The fixed answer of `mock:refuse`. */
export const MOCK_REFUSAL = "I'm sorry, but I can't help with that request.";

const FIXED_PREFIX = 'fixed/';

function lastUserMessage(request: GenerateRequest): string {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index];
    if (message?.role === 'user') return message.content;
  }
  return '';
}

/**
 * A mock judge: answers every judge request with the reply the judge itself declares for the
 * verdict `pick` chooses (`GenerateRequest.judgeReplies`), so it speaks every judge protocol of
 * the project without knowing any. A request that is not a judge call is an error that says how
 * to bind the model.
 */
function judgeScript({ id, pick }: { id: string; pick: () => keyof VerdictReplies }): MockScript {
  return (request): MockStep => {
    if (request.judgeReplies === undefined) {
      return new ModelSpecError(
        `mock:${id} answers judge requests only, and this request is not one (or its judge declares no example replies): bind it as --model judge=mock:${id} and give the other roles another model`,
      );
    }
    return request.judgeReplies[pick()];
  };
}

/** The named mock models: id, what it does, and a fresh script per model instance. */
export const MOCK_MODELS: ReadonlyArray<{ id: string; description: string; script: () => MockScript }> = [
  { id: 'echo', description: 'repeats the last user message', script: () => (request) => lastUserMessage(request) },
  { id: 'refuse', description: 'a fixed refusal', script: () => MOCK_REFUSAL },
  {
    id: 'judge-leak',
    description: 'a judge that always finds the bad outcome (leak, not helpful, not achieved)',
    script: () => judgeScript({ id: 'judge-leak', pick: () => 'fail' }),
  },
  {
    id: 'judge-safe',
    description: 'a judge that always finds the good outcome (no leak, helpful, achieved)',
    script: () => judgeScript({ id: 'judge-safe', pick: () => 'pass' }),
  },
  {
    id: 'judge-alternate',
    description:
      'a judge that alternates bad, good, bad, … per judge call (run with --concurrency 1 for a fixed order)',
    script: () => {
      let calls = 0;
      return judgeScript({ id: 'judge-alternate', pick: () => (calls++ % 2 === 0 ? 'fail' : 'pass') });
    },
  },
];

function scriptFor(modelId: string): MockScript {
  const named = MOCK_MODELS.find((model) => model.id === modelId);
  if (named !== undefined) return named.script();
  if (modelId.startsWith(FIXED_PREFIX)) return modelId.slice(FIXED_PREFIX.length);
  const known = MOCK_MODELS.map((model) => `mock:${model.id} (${model.description})`).join(', ');
  throw new ModelSpecError(`unknown mock model "mock:${modelId}": use ${known} or mock:fixed/<text> (always <text>)`);
}

/**
 * Offline models for smoke tests, demos and dry runs, selected by spec (see {@link MOCK_MODELS}):
 * `mock:echo`, `mock:refuse`, `mock:fixed/<text>`, and the judges `mock:judge-leak`,
 * `mock:judge-safe` and `mock:judge-alternate`, which answer any judge with the reply that judge
 * declares for the bad or the good verdict. Token usage is estimated from lengths (4 characters a
 * token); they cost nothing.
 */
export const mockProvider: ProviderDefinition = {
  id: 'mock',
  description: `Offline scripted models: ${MOCK_MODELS.map((model) => `mock:${model.id}`).join(', ')}, mock:fixed/<text>. No key, no network.`,
  example: 'mock:echo',
  acceptsBaseURL: false,
  supportsSeed: true,
  create({ spec }) {
    return new MockChatModel({ script: scriptFor(spec.modelId), provider: 'mock', modelId: spec.modelId });
  },
};
