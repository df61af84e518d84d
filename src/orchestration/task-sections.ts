import type { Message } from '../spec/message.js';
import type { TaskPrompt } from '../spec/task-prompt.js';

/**
 * Section ids with a shared meaning, for stages that see only part of a task (the 1-2-3
 * check's extractor and checker). Suites that want those stages to see exactly the right
 * material name their sections with these ids; other prompts fall back as each helper says.
 * - `user-input`: the user's instruction (PrivacyLens `User Input`);
 * - `trajectory`: the context the agent has gathered (PrivacyLens `Past Trajectory`);
 * - `recipient`: who the output will reach, when the task states it separately.
 */
export const TASK_SECTION_IDS = {
  userInput: 'user-input',
  trajectory: 'trajectory',
  recipient: 'recipient',
} as const;

type Section = TaskPrompt['sections'][number];

/** Sections as text: `Title:\nbody` (or the bare body), separated by blank lines. */
export function formatSections(sections: readonly Section[]): string {
  return sections.map((section) => (section.title ? `${section.title}:\n${section.body}` : section.body)).join('\n\n');
}

const withId = (prompt: TaskPrompt, id: string) => prompt.sections.filter((section) => section.id === id);

/** The user's request: the `user-input` sections, else the task's instruction (e.g. a ConfAIde question). */
export function userRequestText(prompt: TaskPrompt): string {
  const sections = withId(prompt, TASK_SECTION_IDS.userInput);
  return sections.length > 0 ? formatSections(sections) : prompt.instruction;
}

/**
 * The task's context: the `trajectory` sections, else every section other than `user-input`
 * and `recipient` (a ConfAIde story or meeting is all context).
 */
export function contextText(prompt: TaskPrompt): string {
  const sections = withId(prompt, TASK_SECTION_IDS.trajectory);
  if (sections.length > 0) return formatSections(sections);
  const excluded = new Set<string>([TASK_SECTION_IDS.userInput, TASK_SECTION_IDS.recipient]);
  return formatSections(prompt.sections.filter((section) => !excluded.has(section.id)));
}

/**
 * Where the output goes: the `recipient` sections and, for a final-action task, the action
 * that will carry the output. Undefined when the task states neither (the request itself then
 * is the only recipient context).
 */
export function recipientText(prompt: TaskPrompt): string | undefined {
  const parts = [formatSections(withId(prompt, TASK_SECTION_IDS.recipient))];
  const action = prompt.outputContract?.finalActionName;
  if (action) parts.push(`The response will be carried out through the action ${action}.`);
  const text = parts.filter((part) => part !== '').join('\n\n');
  return text === '' ? undefined : text;
}

/**
 * Messages for a stage that must not see the whole task: the system line and a body of our
 * own, laid out like the suite's prompt. When the suite's rendering starts with a system
 * message the result is system + user; otherwise one user message (system line, blank line,
 * body), as single-user layouts such as PrivacyLens' default expect.
 */
export function renderStandalone({
  prompt,
  systemLine,
  body,
}: {
  prompt: TaskPrompt;
  systemLine: string;
  body: string;
}): Message[] {
  if (prompt.render()[0]?.role === 'system') {
    return [
      { role: 'system', content: systemLine },
      { role: 'user', content: body },
    ];
  }
  return [{ role: 'user', content: systemLine ? `${systemLine}\n\n${body}` : body }];
}
