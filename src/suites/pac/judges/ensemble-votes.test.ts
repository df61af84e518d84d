import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordingEmit, scriptedJudgeModel } from '../../../judges/__fixtures__/scripted-judge-model.js';
import { parseJudgeTemplate } from '../../../judges/index.js';
import { defineJsonJudge } from './define-json-judge.js';
import { majorityDecision, runEnsembleWithVotes } from './ensemble-votes.js';

const template = parseJudgeTemplate({
  source: 'inline:test',
  text: '---\nid: flags\nversion: 1\nprotocol: json\noutput: flags\ninputs: [text]\n---\nJudge {{text}}',
});
const judge = defineJsonJudge({
  template,
  schema: z.object({ flags: z.array(z.boolean()) }),
  toVerdict: ({ flags }) => ({ verdict: 'pass', value: flags.length }),
});

describe('runEnsembleWithVotes', () => {
  it('returns each model’s parsed reply beside its vote, and undefined for an error vote', async () => {
    const { emit, events } = recordingEmit();
    const models = [
      scriptedJudgeModel({ modelId: 'j1', replies: ['{"flags": [true, false]}'] }),
      scriptedJudgeModel({ modelId: 'j2', replies: ['garbage', 'still garbage', 'no'] }),
      scriptedJudgeModel({ modelId: 'j3', replies: ['{"flags": [false]}'] }),
    ];
    const result = await runEnsembleWithVotes({ kind: 'binary', judge, slots: { text: 't' }, models, emit });
    expect(result.parsedVotes.map((vote) => [vote.model, vote.verdict, vote.parsed])).toEqual([
      ['mock:j1', 'pass', { flags: [true, false] }],
      ['mock:j2', 'error', undefined],
      ['mock:j3', 'pass', { flags: [false] }],
    ]);
    expect(events.filter((event) => event.type === 'judge-call')).toHaveLength(3);
  });
});

describe('majorityDecision', () => {
  it('follows the ensemble rule', () => {
    expect(majorityDecision([true])).toBe(true);
    expect(majorityDecision([false, true, false])).toBe(false);
    expect(majorityDecision([true, 'error', true])).toBe(true);
    expect(majorityDecision([true, false])).toBe('error');
    expect(majorityDecision(['error', 'error', true])).toBe('error');
    expect(majorityDecision([])).toBe('error');
  });
});
