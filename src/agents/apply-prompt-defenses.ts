import type { EmitEvent } from '../spec/chat-model.js';
import type { Defense } from '../spec/defense.js';
import type { TaskPrompt } from '../spec/task-prompt.js';

/**
 * Applies every `prompt` defense to a task prompt, in the order given, and records each in a
 * `defense-action` event: action `rewrite` when its transform returned a new prompt, `allow`
 * when it returned the prompt unchanged (e.g. `vanilla`). Other defense kinds are skipped. The
 * one loop every suite uses, so a prompt defense is auditable wherever it runs. `appliesTo`
 * ends the reason (e.g. `for every role of the tree`).
 */
export function applyPromptDefenses({
  prompt,
  defenses,
  emit,
  appliesTo,
}: {
  prompt: TaskPrompt;
  defenses: readonly Defense[];
  emit: EmitEvent;
  appliesTo?: string;
}): TaskPrompt {
  let current = prompt;
  for (const defense of defenses) {
    if (defense.kind !== 'prompt') continue;
    const next = defense.transform(current);
    const changed = next !== current;
    const what = changed ? 'rewrote the task prompt' : 'left the task prompt unchanged';
    emit({
      type: 'defense-action',
      defense: defense.id,
      action: changed ? 'rewrite' : 'allow',
      reason: `prompt defense '${defense.id}' ${what}${appliesTo === undefined ? '' : ` ${appliesTo}`}`,
    });
    current = next;
  }
  return current;
}
