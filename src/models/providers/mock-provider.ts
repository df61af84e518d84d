import type { GenerateRequest } from '../../spec/chat-model.js';
import { ModelSpecError } from '../../spec/errors.js';
import type { ProviderDefinition } from '../provider-registry.js';
import { MockChatModel, type MockScript } from '../testing/mock-chat-model.js';

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

function scriptFor(modelId: string): MockScript {
  if (modelId === 'echo') return (request) => lastUserMessage(request);
  if (modelId === 'refuse') return MOCK_REFUSAL;
  if (modelId.startsWith(FIXED_PREFIX)) return modelId.slice(FIXED_PREFIX.length);
  throw new ModelSpecError(
    `unknown mock model "mock:${modelId}": use mock:echo (repeats the last user message), mock:refuse (a fixed refusal) or mock:fixed/<text> (always <text>)`,
  );
}

/**
 * Offline models for smoke tests and demos, selected by spec:
 * - `mock:echo` answers with the last user message;
 * - `mock:refuse` always answers `MOCK_REFUSAL`;
 * - `mock:fixed/<text>` always answers `<text>`.
 * Token usage is estimated from lengths (4 characters a token); they cost nothing.
 */
export const mockProvider: ProviderDefinition = {
  id: 'mock',
  description: 'Offline scripted models: mock:echo, mock:refuse, mock:fixed/<text>. No key, no network.',
  example: 'mock:echo',
  acceptsBaseURL: false,
  supportsSeed: true,
  create({ spec }) {
    return new MockChatModel({ script: scriptFor(spec.modelId), provider: 'mock', modelId: spec.modelId });
  },
};
