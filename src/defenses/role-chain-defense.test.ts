import { describe, expect, it } from 'vitest';
import { allText, finalActionPrompt, freeTextPrompt } from '../orchestration/testing/task-prompt-fixtures.js';
import { createEventRecorder } from '../runner/create-event-recorder.js';
import { scriptedModelRoles } from '../runner/testing/scripted-model-roles.js';
import { PlanValidationError } from '../spec/errors.js';
import type { TaskPrompt } from '../spec/task-prompt.js';
import { createRoleChainDefense } from './role-chain-defense.js';

async function respond({
  topology,
  prompt,
  sampleOrdinal,
  temperature,
}: {
  topology: string;
  prompt: TaskPrompt;
  sampleOrdinal?: number;
  temperature?: number;
}) {
  const defense = createRoleChainDefense(topology);
  if (defense.kind !== 'responder') throw new Error('expected a responder');
  const { factory, calls } = scriptedModelRoles({
    respond: (call) => `${call.role}#${call.callIndex}`,
    roles: ['generator', 'verifier', 'refiner'],
  });
  const recorder = createEventRecorder();
  const models = factory({ sampleId: 's', epoch: 1, emit: recorder.emit, signal: new AbortController().signal });
  const result = await defense.respond({
    prompt,
    models,
    emit: recorder.emit,
    settings: temperature === undefined ? {} : { temperature },
    ...(sampleOrdinal === undefined ? {} : { sampleOrdinal }),
  });
  return { defense, result, calls, events: recorder.events };
}

describe('chain:<topology>', () => {
  it('answers with the last stage and returns every stage in order', async () => {
    const { defense, result, calls, events } = await respond({
      topology: 'generator>V>r',
      prompt: finalActionPrompt(),
    });
    expect(defense.id).toBe('chain:G>V>R');
    expect(result).toEqual({
      text: 'refiner#2',
      stages: [
        { role: 'generator', text: 'generator#0' },
        { role: 'verifier', text: 'verifier#1' },
        { role: 'refiner', text: 'refiner#2' },
      ],
    });
    expect(calls).toHaveLength(3);
    const modelCalls = events.filter((event) => event.type === 'model-call');
    const actions = events.filter((event) => event.type === 'defense-action');
    expect(modelCalls).toHaveLength(3);
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ defense: 'chain:G>V>R', action: 'rewrite', modelCalls: 3 });
  });

  it("answers a free-text task: the refiner's text is the answer and keeps the suite's answer cue", async () => {
    const prompt = freeTextPrompt();
    const { result, calls } = await respond({ topology: 'G>V>R', prompt });
    expect(result.text).toBe('refiner#2');
    const refiner = allText(calls[2]?.request.messages ?? []);
    expect(refiner.endsWith(prompt.instruction)).toBe(true);
    expect(refiner).not.toContain('Next Action');
  });

  it("keeps the caller's temperature and draw for the first stage and decodes later stages greedily", async () => {
    const { calls } = await respond({
      topology: 'G>V>R',
      prompt: finalActionPrompt(),
      sampleOrdinal: 3,
      temperature: 1,
    });
    expect(calls.map((call) => call.request.settings.temperature)).toEqual([1, 0, 0]);
    expect(calls.map((call) => call.request.sampleOrdinal)).toEqual([3, 3, 3]);
  });

  it("leaves the first stage's temperature to its role's own setting when the caller gives none", async () => {
    const { calls, result } = await respond({ topology: 'G>V>R', prompt: finalActionPrompt() });
    // No temperature on the generator's request, so the bound model's role defaults (e.g. a suite's
    // temperature 1 for K draws) apply; the critic and refiner still decode greedily.
    expect(calls.map((call) => 'temperature' in call.request.settings)).toEqual([false, true, true]);
    expect(calls.slice(1).map((call) => call.request.settings.temperature)).toEqual([0, 0]);
    expect(result.stages).toHaveLength(3);
  });

  it('rejects a missing or malformed topology and branching inside the defense', () => {
    expect(() => createRoleChainDefense(undefined)).toThrow(/needs a topology: write e.g. chain:G>V>R/);
    expect(() => createRoleChainDefense('G>V')).toThrow(PlanValidationError);
    expect(() => createRoleChainDefense('G*4>V>R')).toThrow(/stage 1 cannot branch \('\*4'\)/);
    expect(createRoleChainDefense('G*1>R').id).toBe('chain:G>R');
  });
});
