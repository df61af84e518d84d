import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordingEmit, scriptedJudgeModel } from './__fixtures__/scripted-judge-model.js';
import { answerLineReplies, exampleReplyProblems, jsonReplies } from './example-replies.js';
import { defineJudge } from './judge.js';
import { parseJudgeTemplate } from './judge-template.js';
import { answerLineParser } from './parse-answer-line.js';
import { runJudge } from './run-judge.js';

const lineTemplate = parseJudgeTemplate({
  source: 'inline:yes-no',
  text: '---\nid: t-line\nversion: 1\nprotocol: answer-line\noutput: yes-no\nanswerPattern: "Verdict:"\nlabels: [Yes, No]\ninputs: [text]\n---\nDoes {{text}} leak?',
});
const jsonTemplate = parseJudgeTemplate({
  source: 'inline:json',
  text: '---\nid: t-json\nversion: 1\nprotocol: json\noutput: leak\ninputs: [text]\n---\nDoes {{text}} leak?',
});
const lineJudge = (exampleReplies?: { pass: string; fail: string }) =>
  defineJudge({
    template: lineTemplate,
    parseAnswer: answerLineParser(lineTemplate),
    toVerdict: ({ label }) => ({ verdict: label === 'No' ? 'pass' : 'fail', value: label === 'No' ? 0 : 1 }),
    ...(exampleReplies === undefined ? {} : { exampleReplies }),
  });

describe('exampleReplyProblems', () => {
  it('accepts replies that parse to their verdicts, using the template marker', () => {
    const replies = answerLineReplies({ template: lineTemplate, pass: 'No', fail: 'Yes' });
    expect(replies.pass.endsWith('\nVerdict: No')).toBe(true);
    expect(exampleReplyProblems(lineJudge(replies))).toEqual([]);
  });

  it('names a missing declaration, a reply that does not parse and a reply with the wrong verdict', () => {
    expect(exampleReplyProblems(lineJudge())).toEqual(['judge t-line@1 declares no exampleReplies']);
    const problems = exampleReplyProblems(lineJudge({ pass: 'Verdict: Yes', fail: 'no marker here' }));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toBe("judge t-line@1: the pass example gives verdict 'fail'");
    expect(problems[1]).toMatch(/^judge t-line@1: the fail example does not parse: no valid 'Verdict:' line/);
  });

  it('lets a judge with one outcome give the same reply twice', () => {
    const judge = defineJudge({
      template: jsonTemplate,
      schema: z.object({ items: z.array(z.string()) }),
      toVerdict: ({ items }) => ({ verdict: 'pass', value: items.length }),
      exampleReplies: jsonReplies({ pass: { items: [] }, fail: { items: [] } }),
    });
    expect(exampleReplyProblems(judge)).toEqual([]);
  });
});

describe('runJudge', () => {
  it('sends the example replies with every judge request, so a scripted judge can answer any protocol', async () => {
    const replies = answerLineReplies({ template: lineTemplate, pass: 'No', fail: 'Yes' });
    const model = scriptedJudgeModel({ replies: [(request) => request.judgeReplies?.fail ?? ''] });
    const result = await runJudge({
      judge: lineJudge(replies),
      slots: { text: 'a reply' },
      model,
      emit: recordingEmit().emit,
    });
    expect(model.calls[0]?.judgeReplies).toEqual(replies);
    expect(result.verdict).toBe('fail');
  });
});
