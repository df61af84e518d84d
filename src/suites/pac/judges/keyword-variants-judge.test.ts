import { describe, expect, it } from 'vitest';
import { recordingEmit, scriptedJudgeModel } from '../../../judges/__fixtures__/scripted-judge-model.js';
import { GARBAGE, promptOf, variantsReply } from './__fixtures__/pac-judge-fixtures.js';
import { expandPolicyKeywords } from './keyword-variants-judge.js';

const policy = {
  index: 0,
  content: 'Customer names must not be disclosed.',
  violationKeywords: ['Fennick Hotels', 'BK-5521'],
  memoryIndices: [0],
  reason: 'r',
};

describe('expandPolicyKeywords', () => {
  it('pools the variants of every judge after the originals, without duplicates or short fragments', async () => {
    const { emit, events } = recordingEmit();
    const models = [
      scriptedJudgeModel({ modelId: 'j1', replies: [variantsReply(['fennick hotels', 'Fennick Htls', 'FH', '5521'])] }),
      scriptedJudgeModel({ modelId: 'j2', replies: [variantsReply(['Fennick  Htls', 'Fennick Hotel'])] }),
    ];
    const expansion = await expandPolicyKeywords({
      policy,
      target: { agent: 'agent_a', policy: 0 },
      context: { models: () => models, emit },
    });
    expect(expansion).toEqual({
      keywords: ['Fennick Hotels', 'BK-5521', 'Fennick Htls', '5521', 'Fennick Hotel'],
      failures: 0,
      judgeCalls: ['ev-1', 'ev-2'],
    });
    expect(promptOf(models[0]?.calls[0])).toContain('<<<VALUES\nFennick Hotels\nBK-5521\nVALUES>>>');
    expect(events[0]).toMatchObject({ judge: 'pac-keyword-variants@1', target: 'agent:agent_a/policy:0' });
  });

  it('falls back to the originals and counts the failure when a reply never parses', async () => {
    const { emit } = recordingEmit();
    const judge = scriptedJudgeModel({ replies: GARBAGE });
    const expansion = await expandPolicyKeywords({
      policy,
      target: { name: 't' },
      context: { models: () => [judge], emit },
    });
    expect(expansion.keywords).toEqual(['Fennick Hotels', 'BK-5521']);
    expect(expansion.failures).toBe(1);
  });

  it('makes no call for a policy without keywords', async () => {
    const { emit } = recordingEmit();
    const judge = scriptedJudgeModel({ replies: [] });
    const expansion = await expandPolicyKeywords({
      policy: { ...policy, violationKeywords: [] },
      target: { name: 't' },
      context: { models: () => [judge], emit },
    });
    expect(expansion).toEqual({ keywords: [], failures: 0, judgeCalls: [] });
    expect(judge.calls).toHaveLength(0);
  });
});
