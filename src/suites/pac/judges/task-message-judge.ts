import { loadJudgeTemplate } from '../../../judges/index.js';
import { lazyTemplate, promptTemplatePath } from '../../../prompts/index.js';
import { pacScoreTarget } from '../outcome-scores.js';
import {
  judgeRequirements,
  type RequirementOutcome,
  renderRequirements,
  type TaskEvaluatorInput,
  taskJudge,
} from './task-evaluation.js';

/** `pac-task-message@1`: the messages-mode task judge's template. */
export const TASK_MESSAGE_TEMPLATE = lazyTemplate(() =>
  loadJudgeTemplate({
    path: promptTemplatePath(import.meta.url, 'pac-task-message.v1.md'),
  }),
);

/**
 * The messages-mode task evaluator (§7.1, upstream): one judgment per delivered message (every
 * agent, every turn), each over that message alone, target `turn:<n>`. Per message and
 * requirement the judge models vote by majority. A requirement is achieved when any message
 * achieves it (`turns` lists those messages); otherwise it is `error` when some message's
 * judgment failed, else not achieved. No messages means nothing is achieved, with no call.
 */
export async function judgeTaskByMessages({
  scenario,
  output,
  context,
}: TaskEvaluatorInput): Promise<RequirementOutcome[]> {
  const { requirements } = scenario.goal;
  const count = requirements.length;
  const judge = taskJudge({ template: TASK_MESSAGE_TEMPLATE, count, parse: context.judgeParse ?? 'strict' });
  const names = new Map(scenario.agents.map((agent) => [agent.id, agent.displayName]));
  const perMessage: Array<{ turn: number; decisions: Array<boolean | 'error'>; calls: string[]; error?: string }> = [];
  for (const message of [...output.messages].sort((a, b) => a.turn - b.turn)) {
    const judgment = await judgeRequirements({
      judge,
      count,
      slots: {
        description: scenario.description,
        goal: scenario.goal.content,
        requirements: renderRequirements(requirements),
        agent_name: names.get(message.agentId) ?? message.agentId,
        message: message.text,
      },
      target: pacScoreTarget({ kind: 'turn', turn: message.turn }),
      context,
    });
    perMessage.push({
      turn: message.turn,
      decisions: judgment.decisions,
      calls: judgment.judgeCallIds,
      ...(judgment.error === undefined ? {} : { error: judgment.error }),
    });
  }
  return requirements.map((_, index) => {
    const achieving = perMessage.filter((entry) => entry.decisions[index] === true);
    const failed = perMessage.filter((entry) => entry.decisions[index] === 'error');
    if (achieving.length > 0) {
      const turns = achieving.map((entry) => entry.turn);
      return {
        index,
        status: 'achieved',
        turns,
        inArtifact: false,
        judgeCalls: achieving.flatMap((entry) => entry.calls),
        explanation: `achieved in turn${turns.length === 1 ? '' : 's'} ${turns.join(', ')}`,
      };
    }
    if (failed.length > 0) {
      const reason = failed.find((entry) => entry.error !== undefined)?.error ?? 'the judges did not agree';
      return {
        index,
        status: 'error',
        turns: [],
        inArtifact: false,
        judgeCalls: failed.flatMap((entry) => entry.calls),
        explanation: `no message achieved it and the judgment of turn ${failed.map((entry) => entry.turn).join(', ')} failed: ${reason}`,
      };
    }
    return {
      index,
      status: 'not-achieved',
      turns: [],
      inArtifact: false,
      judgeCalls: [],
      explanation: `no message achieved it (${perMessage.length} judged)`,
    };
  });
}
