import { assertJudgeDefinition, type JsonJudgeDefinition } from '../../../judges/index.js';

/**
 * `defineJudge` for a JSON judge, keeping the narrower type so the schema stays reachable (the
 * PAC judges re-check each vote's parsed reply with it). Throws `PromptTemplateError` when the
 * template's protocol is not `json`.
 */
export function defineJsonJudge<T>(definition: JsonJudgeDefinition<T>): JsonJudgeDefinition<T> {
  assertJudgeDefinition(definition);
  return definition;
}
