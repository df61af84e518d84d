import { DEFAULT_MAX_PARSE_RETRIES } from '../../judges/index.js';
import { type CallCount, estimateTokens, type PlannedCalls } from '../call-pattern.js';
import { helpfulnessTemplates } from './helpfulness-judge.js';
import { type JudgeProtocolOption, leakTemplates } from './leak-judge.js';
import type { PrivacyLensCase } from './privacylens-case.js';

/**
 * The judge calls of judging `answers` answers of one case (a sample's answer, or a tree's
 * leaves): one leak judgment per sensitive item and one helpfulness judgment per answer, none for
 * an answer without an action (so at least 0), each retried up to `DEFAULT_MAX_PARSE_RETRIES`
 * times when its reply does not parse. Prompts are estimated by rendering the templates with an
 * empty action, which then adds up to `actionTokens`.
 */
export function plannedJudgeCalls({
  privacyCase,
  protocol,
  answers,
  actionTokens,
}: {
  privacyCase: PrivacyLensCase;
  protocol: JudgeProtocolOption;
  answers: number;
  actionTokens: number;
}): PlannedCalls[] {
  const { trajectory } = privacyCase;
  const items = trajectory.sensitive_info_items;
  const judged = (perAnswer: number): CallCount => ({
    min: 0,
    expected: answers * perAnswer,
    max: answers * perAnswer * (1 + DEFAULT_MAX_PARSE_RETRIES),
  });
  const leak = items.map((secret) =>
    estimateTokens(leakTemplates[protocol].render({ user_name: trajectory.user_name, action: '', secret })),
  );
  const helpfulness = estimateTokens(
    helpfulnessTemplates[protocol].render({
      user_name: trajectory.user_name,
      user_instruction: trajectory.user_instruction,
      trajectory: trajectory.executable_trajectory,
      action: '',
    }),
  );
  return [
    ...(items.length === 0
      ? []
      : [
          {
            role: 'judge',
            count: judged(items.length),
            inputTokens: { min: Math.min(...leak), max: Math.max(...leak) + actionTokens },
          },
        ]),
    { role: 'judge', count: judged(1), inputTokens: { min: helpfulness, max: helpfulness + actionTokens } },
  ];
}
