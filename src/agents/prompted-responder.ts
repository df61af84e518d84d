import type { EmitEvent, GenerateSettings, ModelRoles } from '../spec/chat-model.js';
import type { Defense, ResponderResult } from '../spec/defense.js';
import { PlanValidationError } from '../spec/errors.js';
import type { TaskPrompt } from '../spec/task-prompt.js';
import { applyPromptDefenses } from './apply-prompt-defenses.js';

type ResponderDefense = Extract<Defense, { kind: 'responder' }>;

/**
 * Answers a single-output task prompt: the seam where defenses plug into every
 * single-answer suite (ConfAIde, PrivacyLens, …).
 *
 * 1. Every `prompt` defense rewrites the prompt, in the order given (`applyPromptDefenses`,
 *    one `defense-action` event each).
 * 2. A `responder` defense (at most one; two throw a PlanValidationError) then produces the
 *    answer with its own pipeline of roles.
 * 3. Without one, the `agent` role answers `prompt.render()` once; the single stage is `agent`.
 *
 * Retrieval-filter defenses do not act on prompts and are ignored here. `settings` are passed
 * through as given (the bound model merges role defaults); `sampleOrdinal` distinguishes
 * repeated draws of the same prompt.
 */
export async function answerTaskPrompt({
  prompt,
  defenses,
  models,
  emit,
  settings = {},
  sampleOrdinal,
}: {
  prompt: TaskPrompt;
  defenses: readonly Defense[];
  models: ModelRoles;
  emit: EmitEvent;
  settings?: GenerateSettings;
  sampleOrdinal?: number;
}): Promise<ResponderResult> {
  const responders = defenses.filter((defense): defense is ResponderDefense => defense.kind === 'responder');
  if (responders.length > 1) {
    const ids = responders.map((defense) => defense.id).join(', ');
    throw new PlanValidationError(`at most one responder defense can answer a prompt, got ${ids}: keep one of them`);
  }
  const current = applyPromptDefenses({ prompt, defenses, emit });
  const responder = responders[0];
  if (responder) {
    return responder.respond({
      prompt: current,
      models,
      emit,
      settings,
      ...(sampleOrdinal === undefined ? {} : { sampleOrdinal }),
    });
  }
  const result = await models.model('agent').generate({
    messages: current.render(),
    settings,
    ...(sampleOrdinal === undefined ? {} : { sampleOrdinal }),
  });
  return { text: result.text, stages: [{ role: 'agent', text: result.text }] };
}
