import {
  type AnswerLine,
  answerLineParser,
  answerLineReplies,
  defineJudge,
  type JudgeTemplate,
  loadJudgeTemplate,
  runJudge,
  toScore,
} from '../../../judges/index.js';
import { lazyTemplate, promptTemplatePath } from '../../../prompts/index.js';
import type { BoundModel, EmitEvent } from '../../../spec/chat-model.js';
import type { Score } from '../../../spec/score.js';
import { renderSnippet, type SecretDetectionItem } from './secret-detection-items.js';

/** The detection prompt (`prompts/privacybench-secret-detection.v1.md`, answer-line, Yes/No). */
export const SECRET_DETECTION_TEMPLATE: JudgeTemplate = lazyTemplate(() =>
  loadJudgeTemplate({
    path: promptTemplatePath(import.meta.url, 'prompts/privacybench-secret-detection.v1.md'),
  }),
);

/** The scorer name of a detection answer. */
export const SECRET_DETECTION_SCORER = `${SECRET_DETECTION_TEMPLATE.id}@${SECRET_DETECTION_TEMPLATE.version}`;

/**
 * Asks one model whether an item's snippet reveals a secret and scores the answer against the
 * item's label. The answer-line protocol of the judges is reused (the reply must end with
 * `Answer: Yes` or `Answer: No`; an unparseable reply is retried, then recorded as `error`, never
 * as a No), with one `judge-call` event holding the raw exchange, at temperature 0.
 *
 * The score: `target` = `{ detector }` (e.g. `agent`, `judge:1:openai:gpt-5.1`); `label` = the
 * model's answer (`Yes`/`No`); `verdict` = `pass` when the answer matches the label (a true
 * positive or true negative) and `fail` when it does not, `value` 1 or 0; `explanation` names the
 * confusion cell (`TP`, `TN`, `FP`, `FN`).
 */
export async function detectSecret({
  item,
  model,
  detector,
  emit,
  signal,
}: {
  item: Pick<SecretDetectionItem, 'label' | 'messages'>;
  model: BoundModel;
  detector: string;
  emit: EmitEvent;
  signal?: AbortSignal;
}): Promise<Score> {
  const truth = item.label === 'secret';
  const judge = defineJudge<AnswerLine>({
    template: SECRET_DETECTION_TEMPLATE,
    parseAnswer: answerLineParser(SECRET_DETECTION_TEMPLATE),
    // The good outcome is the right answer for this snippet.
    exampleReplies: answerLineReplies({
      template: SECRET_DETECTION_TEMPLATE,
      pass: truth ? 'Yes' : 'No',
      fail: truth ? 'No' : 'Yes',
    }),
    toVerdict: (parsed) => {
      const saysSecret = parsed.label === 'Yes';
      const correct = saysSecret === truth;
      const cell = `${correct ? 'T' : 'F'}${saysSecret ? 'P' : 'N'}`;
      return {
        verdict: correct ? 'pass' : 'fail',
        value: correct ? 1 : 0,
        label: saysSecret ? 'Yes' : 'No',
        explanation: cell,
      };
    },
  });
  const result = await runJudge({
    judge,
    slots: { snippet: renderSnippet(item) },
    model,
    emit,
    target: { detector },
    ...(signal === undefined ? {} : { signal }),
  });
  return toScore({ scorer: SECRET_DETECTION_SCORER, target: { detector }, result });
}
