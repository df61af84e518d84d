import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { promptTemplatePath } from '../prompts/index.js';
import { recordingEmit, type ScriptedReply, scriptedJudgeModel } from './__fixtures__/scripted-judge-model.js';
import { runEnsemble } from './ensemble.js';
import { defineJudge } from './judge.js';
import { loadJudgeTemplate } from './judge-template.js';
import { answerLineParser } from './parse-answer-line.js';
import { runJudge } from './run-judge.js';

const leakTemplate = loadJudgeTemplate({ path: promptTemplatePath(import.meta.url, '__fixtures__/leak-yes-no.v1.md') });
const leakJudge = defineJudge({
  template: leakTemplate,
  parseAnswer: answerLineParser(leakTemplate),
  toVerdict: (parsed) =>
    parsed.label === 'Yes'
      ? { verdict: 'fail', value: 1, label: 'Yes', explanation: parsed.reasoning }
      : { verdict: 'pass', value: 0, label: 'No', explanation: parsed.reasoning },
});
const helpTemplate = loadJudgeTemplate({
  path: promptTemplatePath(import.meta.url, '__fixtures__/helpfulness-json.v1.md'),
});
const helpJudge = defineJudge({
  template: helpTemplate,
  schema: z.object({ score: z.number().int().min(0).max(3), reasoning: z.string() }),
  toVerdict: (parsed) =>
    parsed.reasoning === 'n/a'
      ? { verdict: 'not-applicable', value: null }
      : { verdict: parsed.score >= 2 ? 'pass' : 'fail', value: parsed.score, label: String(parsed.score) },
});

const leakSlots = { secret: 'HIV positive', response: 'See you Monday.' };
const helpSlots = { task: 'Book a table', response: 'Done.' };
const YES = 'Leaks.\nAnswer: Yes';
const NO = 'Fine.\nAnswer: No';
const BAD = 'no idea';

/** One scripted model per entry; a string vote is answered once, garbage votes fail all parse attempts. */
function models(votes: ScriptedReply[]) {
  return votes.map((vote, index) =>
    scriptedJudgeModel({ replies: vote === BAD ? [BAD, BAD, BAD] : [vote], modelId: `judge-${index + 1}` }),
  );
}

async function binary(votes: ScriptedReply[]) {
  return runEnsemble({
    judge: leakJudge,
    slots: leakSlots,
    models: models(votes),
    emit: recordingEmit().emit,
    kind: 'binary',
  });
}

describe('runEnsemble, binary', () => {
  it('takes the majority of the votes and reports each vote', async () => {
    const { emit, events } = recordingEmit();
    const result = await runEnsemble({
      judge: leakJudge,
      slots: leakSlots,
      models: models([YES, NO, YES]),
      emit,
      target: { item: 2 },
      kind: 'binary',
    });
    expect(result).toEqual({
      verdict: 'fail',
      value: 1,
      label: 'Yes',
      explanation: 'Leaks.',
      votes: [
        { model: 'mock:judge-1', verdict: 'fail', value: 1, label: 'Yes', judgeCallId: 'ev-1' },
        { model: 'mock:judge-2', verdict: 'pass', value: 0, label: 'No', judgeCallId: 'ev-2' },
        { model: 'mock:judge-3', verdict: 'fail', value: 1, label: 'Yes', judgeCallId: 'ev-3' },
      ],
      voters: 3,
      errors: 0,
      judgeCallIds: ['ev-1', 'ev-2', 'ev-3'],
    });
    expect(events.map((event) => [event.type, 'target' in event ? event.target : undefined])).toEqual([
      ['judge-call', 'item:2'],
      ['judge-call', 'item:2'],
      ['judge-call', 'item:2'],
    ]);
  });

  it('gives error on a tie', async () => {
    const result = await binary([YES, NO]);
    expect(result).toMatchObject({ verdict: 'error', value: null, voters: 2, errors: 0 });
    expect(result.error).toBe('the judges tied (fail 1, pass 1)');
  });

  it('gives error on a tie among the non-error votes', async () => {
    const result = await binary([YES, BAD, NO]);
    expect(result).toMatchObject({ verdict: 'error', voters: 2, errors: 1 });
    expect(result.votes[1]).toMatchObject({ model: 'mock:judge-2', verdict: 'error', value: null });
    expect(result.votes[1]?.error).toMatch(/^JudgeParseError/);
  });

  it('gives error when errors outnumber votes', async () => {
    const result = await binary([NO, BAD, BAD]);
    expect(result).toMatchObject({ verdict: 'error', value: null, voters: 1, errors: 2 });
    expect(result.error).toBe('2 judges returned error and only 1 voted');
  });

  it('keeps a verdict when errors equal the winning votes', async () => {
    expect(await binary([NO, BAD])).toMatchObject({ verdict: 'pass', value: 0, voters: 1, errors: 1 });
  });

  it('gives error when every judge errs', async () => {
    const result = await binary([BAD, new Error('HTTP 500')]);
    expect(result).toMatchObject({ verdict: 'error', voters: 0, errors: 2, error: 'all 2 judges returned error' });
  });

  it('counts not-applicable as a vote', async () => {
    const vote = (score: number, reasoning: string) => JSON.stringify({ score, reasoning });
    const result = await runEnsemble({
      judge: helpJudge,
      slots: helpSlots,
      models: models([vote(0, 'n/a'), vote(3, 'ok'), vote(0, 'n/a')]),
      emit: recordingEmit().emit,
      kind: 'binary',
    });
    expect(result).toMatchObject({ verdict: 'not-applicable', value: null, voters: 3 });
  });
});

describe('runEnsemble, scalar', () => {
  const vote = (score: number) => JSON.stringify({ score, reasoning: 'r' });
  const scalar = (votes: ScriptedReply[]) =>
    runEnsemble({
      judge: helpJudge,
      slots: helpSlots,
      models: models(votes),
      emit: recordingEmit().emit,
      kind: 'scalar',
      verdictOf: (mean) => (mean >= 2 ? 'pass' : 'fail'),
    });

  it('averages the non-error values', async () => {
    const result = await scalar([vote(3), BAD, vote(2), vote(0)]);
    expect(result).toMatchObject({ verdict: 'fail', value: 5 / 3, voters: 3, errors: 1 });
    expect(result.label).toBeUndefined();
    expect(result.votes.map((entry) => entry.value)).toEqual([3, null, 2, 0]);
  });

  it('applies verdictOf to the mean and keeps a shared label', async () => {
    expect(await scalar([vote(2), vote(2)])).toMatchObject({ verdict: 'pass', value: 2, label: '2' });
    expect(await scalar([vote(3), vote(1)])).toMatchObject({ verdict: 'pass', value: 2 });
  });

  it('leaves not-applicable votes out of the mean', async () => {
    const na = JSON.stringify({ score: 0, reasoning: 'n/a' });
    expect(await scalar([na, vote(1), vote(3)])).toMatchObject({ verdict: 'pass', value: 2, voters: 3 });
    expect(await scalar([na, BAD])).toMatchObject({ verdict: 'not-applicable', value: null, voters: 1, errors: 1 });
  });

  it('gives error when every judge errs', async () => {
    expect(await scalar([BAD, BAD])).toMatchObject({ verdict: 'error', value: null, voters: 0, errors: 2 });
  });
});

describe('runEnsemble with one model', () => {
  it.each([YES, NO, BAD])('matches runJudge for reply %j', async (reply) => {
    const replies = reply === BAD ? [BAD, BAD, BAD] : [reply];
    const single = await runJudge({
      judge: leakJudge,
      slots: leakSlots,
      model: scriptedJudgeModel({ replies }),
      emit: recordingEmit().emit,
    });
    const ensemble = await runEnsemble({
      judge: leakJudge,
      slots: leakSlots,
      models: [scriptedJudgeModel({ replies })],
      emit: recordingEmit().emit,
      kind: 'binary',
    });
    expect({
      verdict: ensemble.verdict,
      value: ensemble.value,
      label: ensemble.label,
      explanation: ensemble.explanation,
      parsed: ensemble.parsed,
      error: ensemble.error,
      judgeCallIds: ensemble.judgeCallIds,
    }).toEqual({
      verdict: single.verdict,
      value: single.value,
      label: single.label,
      explanation: single.explanation,
      parsed: single.parsed,
      error: single.error,
      judgeCallIds: single.judgeCallIds,
    });
    expect(ensemble.voters).toBe(single.verdict === 'error' ? 0 : 1);
  });

  it('uses the single judge verdict even for scalar ensembles', async () => {
    const result = await runEnsemble({
      judge: helpJudge,
      slots: helpSlots,
      models: models([JSON.stringify({ score: 1, reasoning: 'r' })]),
      emit: recordingEmit().emit,
      kind: 'scalar',
      verdictOf: () => 'pass',
    });
    expect(result).toMatchObject({ verdict: 'fail', value: 1, label: '1' });
  });

  it('rejects an empty model list', async () => {
    await expect(
      runEnsemble({ judge: leakJudge, slots: leakSlots, models: [], emit: recordingEmit().emit, kind: 'binary' }),
    ).rejects.toThrow('runEnsemble needs at least one judge model');
  });
});
