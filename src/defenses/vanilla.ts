import type { Defense } from '../spec/defense.js';
import type { TaskPrompt } from '../spec/task-prompt.js';

/** The baseline: leaves the task prompt exactly as the suite wrote it. */
export const vanillaDefense: Defense = {
  id: 'vanilla',
  description: 'No defense: the task prompt as the suite wrote it (the baseline).',
  kind: 'prompt',
  appliesTo: ['final-action', 'free-text-answer', 'assistant-turn', 'collaboration-turn'],
  transform: (prompt: TaskPrompt) => prompt,
};
