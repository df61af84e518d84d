import { describe, expect, it } from 'vitest';
import { answerTaskPrompt } from '../agents/prompted-responder.js';
import {
  allText,
  FIXTURE_LINES,
  finalActionPrompt,
  freeTextPrompt,
} from '../orchestration/testing/task-prompt-fixtures.js';
import { createEventRecorder } from '../runner/create-event-recorder.js';
import { scriptedModelRoles } from '../runner/testing/scripted-model-roles.js';
import { GENERIC_PRIVACY_INSTRUCTION, privacyEnhancedPrompt, privacyPromptDefense } from './privacy-prompt.js';
import { createRoleChainDefense } from './role-chain-defense.js';

describe('privacy-prompt (PPE)', () => {
  it("swaps only the system line for the suite's privacy variant", () => {
    const prompt = finalActionPrompt();
    const enhanced = privacyEnhancedPrompt(prompt);
    expect(enhanced).not.toBe(prompt);
    expect(enhanced.systemLine).toBe(FIXTURE_LINES.privacy);
    expect(enhanced.privacyMode).toBe('privacy-enhanced');
    expect(prompt.privacyMode).toBeUndefined();
    expect(enhanced.instruction).toBe(prompt.instruction);
    expect(enhanced.render()).toEqual(prompt.render({ systemLine: FIXTURE_LINES.privacy }));
    expect(enhanced.render({ instruction: 'X' })).toEqual(
      prompt.render({ systemLine: FIXTURE_LINES.privacy, instruction: 'X' }),
    );
  });

  it('adds the generic instruction when the suite has no variant, even for a closure-rendered prompt', () => {
    const prompt = freeTextPrompt();
    const enhanced = privacyEnhancedPrompt(prompt);
    const line = `You summarise meetings. ${GENERIC_PRIVACY_INSTRUCTION}`;
    expect(enhanced.systemLine).toBe(line);
    expect(enhanced.render()).toEqual(prompt.render({ systemLine: line }));
  });

  it('appends an instruction suffix when the suite provides only that (PrivacyBench style)', () => {
    const prompt = { ...freeTextPrompt(), privacyVariants: { instructionSuffix: 'Keep secrets.' } };
    const enhanced = privacyEnhancedPrompt(prompt);
    expect(enhanced.systemLine).toBe(prompt.systemLine);
    expect(enhanced.instruction).toBe(`${prompt.instruction}\nKeep secrets.`);
  });

  it('is a prompt defense for every single-answer task kind', () => {
    expect(privacyPromptDefense).toMatchObject({
      id: 'privacy-prompt',
      kind: 'prompt',
      appliesTo: ['final-action', 'free-text-answer', 'assistant-turn'],
    });
  });

  it('composes with a chain: every role gets a privacy-conscious system line, and PPE records a rewrite', async () => {
    const { factory, calls } = scriptedModelRoles({
      respond: (call) => `out-${call.role}`,
      roles: ['agent', 'generator', 'verifier', 'refiner'],
    });
    const recorder = createEventRecorder();
    const models = factory({ sampleId: 's', epoch: 1, emit: recorder.emit, signal: new AbortController().signal });
    const answer = await answerTaskPrompt({
      prompt: finalActionPrompt(),
      defenses: [privacyPromptDefense, createRoleChainDefense('G>V>R')],
      models,
      emit: recorder.emit,
    });
    expect(answer.text).toBe('out-refiner');
    expect(calls.map((call) => call.role)).toEqual(['generator', 'verifier', 'refiner']);
    for (const call of calls) {
      const text = allText(call.request.messages);
      expect(text).toContain('in a helpful and privacy-conscious AI multi-agent system');
      // The role line replaces the suite's line; it does not stack on top of it.
      expect(text).not.toContain(FIXTURE_LINES.privacy);
    }
    const actions = recorder.events.filter((event) => event.type === 'defense-action');
    expect(actions.map((event) => [event.defense, event.action])).toEqual([
      ['privacy-prompt', 'rewrite'],
      ['chain:G>V>R', 'rewrite'],
    ]);
  });
});
