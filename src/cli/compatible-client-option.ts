import type { OpenAiCompatibleClient } from '../models/provider-registry.js';
import { PlanValidationError } from '../spec/errors.js';

/** The environment variable that picks the client of OpenAI-compatible providers. */
export const COMPATIBLE_CLIENT_ENV = 'CONFIDANT_OPENAI_COMPATIBLE_CLIENT';

const CLIENTS: readonly OpenAiCompatibleClient[] = ['lean', 'ai-sdk'];

/**
 * The client of the OpenAI-compatible providers (vLLM, Ollama, `openai-compatible`) as a
 * spreadable option: `{ openAiCompatibleClient }` when `CONFIDANT_OPENAI_COMPATIBLE_CLIENT` is
 * set (`lean` or `ai-sdk`), else nothing (the library's default, `lean`). Any other value is a user
 * error naming the accepted ones.
 */
export function compatibleClientOption(env: Record<string, string | undefined>): {
  openAiCompatibleClient?: OpenAiCompatibleClient;
} {
  const raw = env[COMPATIBLE_CLIENT_ENV]?.trim();
  if (raw === undefined || raw === '') return {};
  const client = CLIENTS.find((candidate) => candidate === raw.toLowerCase());
  if (client === undefined) {
    throw new PlanValidationError(
      `${COMPATIBLE_CLIENT_ENV} must be ${CLIENTS.join(' or ')}, not ${JSON.stringify(raw.slice(0, 40))}`,
    );
  }
  return { openAiCompatibleClient: client };
}
