import type { Message } from './message.js';

/**
 * A single-output task as named slots, so defenses can rebuild prompts without knowing the suite.
 * `render` turns the slots into chat messages; overrides replace the system line or instruction.
 */
export type TaskPrompt = {
  systemLine: string;
  sections: Array<{ id: string; title?: string; body: string }>;
  instruction: string;
  outputContract?: { formatBlock: string; finalActionName?: string };
  privacyVariants?: { systemLine?: string; instructionSuffix?: string };
  /**
   * `privacy-enhanced` once the privacy-prompt defense has applied; role-chain defenses read it
   * to give every role its privacy-conscious system line. Absent means `naive`.
   */
  privacyMode?: 'naive' | 'privacy-enhanced';
  render(overrides?: Partial<Pick<TaskPrompt, 'systemLine' | 'instruction'>>): Message[];
};
