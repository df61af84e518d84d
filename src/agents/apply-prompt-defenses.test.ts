import { describe, expect, it } from 'vitest';
import { createEventRecorder } from '../runner/create-event-recorder.js';
import type { Defense } from '../spec/defense.js';
import type { TaskPrompt } from '../spec/task-prompt.js';
import { applyPromptDefenses } from './apply-prompt-defenses.js';

const taskPrompt = (instruction: string): TaskPrompt => ({
  systemLine: 'sys',
  sections: [],
  instruction,
  render: () => [],
});
const prompt = taskPrompt('Answer.');

const keep: Defense = { kind: 'prompt', id: 'keep', description: 'd', appliesTo: [], transform: (current) => current };
const suffix: Defense = {
  kind: 'prompt',
  id: 'suffix',
  description: 'd',
  appliesTo: [],
  transform: (current) => taskPrompt(`${current.instruction} Be careful.`),
};

describe('applyPromptDefenses', () => {
  it('applies prompt defenses in order and records one defense-action event each', () => {
    const { emit, events } = createEventRecorder();
    const result = applyPromptDefenses({ prompt, defenses: [keep, suffix], emit, appliesTo: 'for every role' });
    expect(result.instruction).toBe('Answer. Be careful.');
    expect(events.map((event) => ({ ...event, id: undefined, time: undefined }))).toEqual([
      {
        type: 'defense-action',
        defense: 'keep',
        action: 'allow',
        reason: "prompt defense 'keep' left the task prompt unchanged for every role",
        id: undefined,
        time: undefined,
      },
      {
        type: 'defense-action',
        defense: 'suffix',
        action: 'rewrite',
        reason: "prompt defense 'suffix' rewrote the task prompt for every role",
        id: undefined,
        time: undefined,
      },
    ]);
  });

  it('skips other defense kinds', () => {
    const { emit, events } = createEventRecorder();
    const responder: Defense = {
      kind: 'responder',
      id: 'r',
      description: 'd',
      appliesTo: [],
      respond: async () => ({ text: '', stages: [] }),
    };
    expect(applyPromptDefenses({ prompt, defenses: [responder], emit })).toBe(prompt);
    expect(events).toEqual([]);
  });
});
