import { describe, expect, it } from 'vitest';
import type { BoundModel, EmitEvent, GenerateRequest, ModelRoles } from '../spec/chat-model.js';
import type { Defense } from '../spec/defense.js';
import { PlanValidationError } from '../spec/errors.js';
import type { TranscriptEvent, TranscriptEventInput } from '../spec/event.js';
import type { Message } from '../spec/message.js';
import type { TaskPrompt } from '../spec/task-prompt.js';
import { answerTaskPrompt } from './prompted-responder.js';

/** A task prompt that renders its slots as one user message. */
function taskPrompt(slots: { systemLine: string; instruction: string }): TaskPrompt {
  return {
    ...slots,
    sections: [{ id: 'story', title: 'Story', body: 'Ann told Bo a secret.' }],
    render(overrides) {
      const systemLine = overrides?.systemLine ?? this.systemLine;
      const instruction = overrides?.instruction ?? this.instruction;
      const content = `${systemLine ? `${systemLine}\n\n` : ''}Story:\n${this.sections[0]?.body}\n${instruction}`;
      return [{ role: 'user', content }];
    },
  };
}

/** Model roles whose every role answers with `reply(request)` and records the requests. */
function scriptedRoles(reply: (request: GenerateRequest) => string) {
  const calls: Array<{ role: string; request: GenerateRequest }> = [];
  const bound = (role: string): BoundModel => ({
    role,
    provider: 'mock',
    modelId: 'scripted',
    generate: async (request) => {
      calls.push({ role, request });
      return {
        text: reply(request),
        toolCalls: [],
        finishReason: 'stop',
        usage: { inputTokens: null, outputTokens: null },
        warnings: [],
      };
    },
  });
  const models: ModelRoles = { has: () => true, model: bound, ensemble: (role) => [bound(role)] };
  return { models, calls };
}

function recorder() {
  const events: Array<Record<string, unknown>> = [];
  const emit: EmitEvent = (event: TranscriptEventInput) => {
    events.push({ ...event });
    return { ...event, id: `e${events.length}`, time: '2025-01-01T00:00:00.000Z' } as TranscriptEvent;
  };
  return { events, emit };
}

const lastUserText = (messages: Message[]) => messages.at(-1)?.content;

const suffixDefense: Defense = {
  id: 'suffix',
  description: 'appends a privacy reminder',
  kind: 'prompt',
  appliesTo: ['free-text-answer'],
  transform: (prompt) => ({ ...prompt, instruction: `${prompt.instruction} Keep secrets.` }),
};
const systemDefense: Defense = {
  id: 'system',
  description: 'sets the system line',
  kind: 'prompt',
  appliesTo: ['free-text-answer'],
  transform: (prompt) => ({ ...prompt, systemLine: 'Be discreet.' }),
};
const identityDefense: Defense = {
  id: 'vanilla',
  description: 'no change',
  kind: 'prompt',
  appliesTo: ['free-text-answer'],
  transform: (prompt) => prompt,
};

describe('answerTaskPrompt', () => {
  it('asks the agent role with the rendered prompt, settings and sample ordinal', async () => {
    const { models, calls } = scriptedRoles(() => 'an answer');
    const { emit, events } = recorder();
    const result = await answerTaskPrompt({
      prompt: taskPrompt({ systemLine: '', instruction: 'What now?' }),
      defenses: [],
      models,
      emit,
      settings: { temperature: 1 },
      sampleOrdinal: 3,
    });
    expect(result).toEqual({ text: 'an answer', stages: [{ role: 'agent', text: 'an answer' }] });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.role).toBe('agent');
    expect(calls[0]?.request).toEqual({
      messages: [{ role: 'user', content: 'Story:\nAnn told Bo a secret.\nWhat now?' }],
      settings: { temperature: 1 },
      sampleOrdinal: 3,
    });
    expect(events).toEqual([]);
  });

  it('applies prompt defenses in order and records each one', async () => {
    const { models, calls } = scriptedRoles((request) => lastUserText(request.messages) ?? '');
    const { emit, events } = recorder();
    const result = await answerTaskPrompt({
      prompt: taskPrompt({ systemLine: '', instruction: 'What now?' }),
      defenses: [identityDefense, systemDefense, suffixDefense],
      models,
      emit,
    });
    expect(result.text).toBe('Be discreet.\n\nStory:\nAnn told Bo a secret.\nWhat now? Keep secrets.');
    expect(calls[0]?.request.settings).toEqual({});
    expect(calls[0]?.request.sampleOrdinal).toBeUndefined();
    expect(events.map((event) => [event.type, event.defense, event.action])).toEqual([
      ['defense-action', 'vanilla', 'allow'],
      ['defense-action', 'system', 'rewrite'],
      ['defense-action', 'suffix', 'rewrite'],
    ]);
    expect(events.every((event) => typeof event.reason === 'string' && event.reason.length > 0)).toBe(true);
  });

  it('delegates to a responder defense with the rewritten prompt', async () => {
    const { models, calls } = scriptedRoles(() => 'draft');
    const { emit } = recorder();
    const seen: Array<{ instruction: string; ordinal: number | undefined; settings: object }> = [];
    const responder: Defense = {
      id: 'chain:G>V',
      description: 'two stages',
      kind: 'responder',
      appliesTo: ['free-text-answer'],
      respond: async ({ prompt, models: roles, settings, sampleOrdinal }) => {
        seen.push({ instruction: prompt.instruction, ordinal: sampleOrdinal, settings });
        const draft = await roles.model('generator').generate({ messages: prompt.render(), settings });
        return {
          text: `checked ${draft.text}`,
          stages: [
            { role: 'generator', text: draft.text },
            { role: 'verifier', text: `checked ${draft.text}` },
          ],
        };
      },
    };
    const result = await answerTaskPrompt({
      prompt: taskPrompt({ systemLine: '', instruction: 'What now?' }),
      defenses: [suffixDefense, responder],
      models,
      emit,
      settings: { topP: 1 },
      sampleOrdinal: 2,
    });
    expect(result.text).toBe('checked draft');
    expect(result.stages.map((stage) => stage.role)).toEqual(['generator', 'verifier']);
    expect(seen).toEqual([{ instruction: 'What now? Keep secrets.', ordinal: 2, settings: { topP: 1 } }]);
    expect(calls.map((call) => call.role)).toEqual(['generator']);
  });

  it('rejects two responder defenses before calling any model', async () => {
    const { models, calls } = scriptedRoles(() => 'x');
    const { emit } = recorder();
    const responder = (id: string): Defense => ({
      id,
      description: id,
      kind: 'responder',
      appliesTo: ['free-text-answer'],
      respond: async () => ({ text: id, stages: [] }),
    });
    await expect(
      answerTaskPrompt({
        prompt: taskPrompt({ systemLine: '', instruction: 'Q' }),
        defenses: [responder('a'), responder('b')],
        models,
        emit,
      }),
    ).rejects.toBeInstanceOf(PlanValidationError);
    expect(calls).toHaveLength(0);
  });
});
