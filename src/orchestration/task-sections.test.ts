import { describe, expect, it } from 'vitest';
import { contextText, recipientText, renderStandalone, userRequestText } from './task-sections.js';
import { finalActionPrompt, freeTextPrompt } from './testing/task-prompt-fixtures.js';

describe('task sections', () => {
  it('finds the user request, the trajectory and the action of a final-action task', () => {
    const prompt = finalActionPrompt();
    expect(userRequestText(prompt)).toBe('User Input:\nEmail Bob a summary of my week.');
    expect(contextText(prompt)).toBe('Past Trajectory:\nObservation: John saw Dr. Lee about his diagnosis.');
    expect(recipientText(prompt)).toBe('The response will be carried out through the action GmailSendEmail.');
  });

  it('falls back to the instruction and all sections for a task without those ids', () => {
    const prompt = freeTextPrompt();
    expect(userRequestText(prompt)).toBe(prompt.instruction);
    expect(contextText(prompt)).toBe('Meeting:\nKate: Alice is pregnant, keep it quiet.');
    expect(recipientText(prompt)).toBeUndefined();
    const withRecipient = { ...prompt, sections: [...prompt.sections, { id: 'recipient', body: 'All attendees.' }] };
    expect(recipientText(withRecipient)).toBe('All attendees.');
    expect(contextText(withRecipient)).toBe('Meeting:\nKate: Alice is pregnant, keep it quiet.');
  });

  it("mirrors the suite's layout for standalone stage prompts", () => {
    expect(renderStandalone({ prompt: freeTextPrompt(), systemLine: 'S', body: 'B' })).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'B' },
    ]);
    expect(renderStandalone({ prompt: finalActionPrompt(), systemLine: 'S', body: 'B' })).toEqual([
      { role: 'user', content: 'S\n\nB' },
    ]);
    expect(renderStandalone({ prompt: finalActionPrompt(), systemLine: '', body: 'B' })).toEqual([
      { role: 'user', content: 'B' },
    ]);
  });
});
