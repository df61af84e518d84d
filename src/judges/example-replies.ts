import type { VerdictReplies } from '../spec/chat-model.js';
import { DEFAULT_ANSWER_MARKER } from './answer-marker.js';
import type { JudgeDefinition } from './judge.js';
import type { JudgeTemplate } from './judge-template.js';
import { judgeName } from './judge-template.js';
import { parseReply, settleReply } from './run-judge.js';

/**
 * What is wrong with a judge's `exampleReplies`, empty when nothing is: each reply must parse
 * under the judge's own protocol and give its verdict (`pass` → pass, `fail` → fail), except that
 * identical replies (a judge with one outcome) only need to parse.
 */
export function exampleReplyProblems<T>(judge: JudgeDefinition<T>): string[] {
  const name = judgeName(judge.template);
  const replies = judge.exampleReplies;
  if (replies === undefined) return [`judge ${name} declares no exampleReplies`];
  const single = replies.pass === replies.fail;
  return (['pass', 'fail'] as const).flatMap((verdict) => {
    const parsed = parseReply(judge, replies[verdict]);
    if (!parsed.ok) return [`judge ${name}: the ${verdict} example does not parse: ${parsed.error.message}`];
    const outcome = settleReply(judge, parsed.parsed);
    if (outcome.verdict === verdict || (single && (outcome.verdict === 'pass' || outcome.verdict === 'fail')))
      return [];
    return [
      `judge ${name}: the ${verdict} example gives verdict '${outcome.verdict}'${outcome.error ? ` (${outcome.error})` : ''}`,
    ];
  });
}

/**
 * Example replies for an answer-line judge: a line of reasoning, then the template's answer
 * marker (default `Answer:`) with the label of each verdict.
 */
export function answerLineReplies({
  template,
  pass,
  fail,
}: {
  template: Pick<JudgeTemplate, 'answerPattern'>;
  pass: string;
  fail: string;
}): VerdictReplies {
  const marker = template.answerPattern ?? DEFAULT_ANSWER_MARKER;
  const reply = (label: string) => `Reasoning: a scripted example reply.\n${marker} ${label}`;
  return { pass: reply(pass), fail: reply(fail) };
}

/** Example replies for a JSON judge: each object as one line of JSON. */
export function jsonReplies({ pass, fail }: { pass: object; fail: object }): VerdictReplies {
  return { pass: JSON.stringify(pass), fail: JSON.stringify(fail) };
}
