import { loadJudgeTemplate } from '../../../judges/index.js';
import { lazyTemplate, promptTemplatePath } from '../../../prompts/index.js';
import { pacScoreTarget } from '../outcome-scores.js';
import type { PacOutput } from '../pac-output.js';
import type { PacScenario } from '../scenario-schema.js';
import { majorityDecision, runEnsembleWithVotes } from './ensemble-votes.js';
import { type PacJudgeContext, signalOf } from './judge-models.js';
import { type RequirementOutcome, renderRequirements, requirementDecisions, taskJudge } from './task-evaluation.js';

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
}: {
  scenario: PacScenario;
  output: PacOutput;
  context: PacJudgeContext;
}): Promise<RequirementOutcome[]> {
  const { requirements } = scenario.goal;
  const count = requirements.length;
  const judge = taskJudge({ template: TASK_MESSAGE_TEMPLATE, count, parse: context.judgeParse ?? 'strict' });
  const names = new Map(scenario.agents.map((agent) => [agent.id, agent.displayName]));
  const perMessage: Array<{ turn: number; decisions: Array<boolean | 'error'>; calls: string[]; error?: string }> = [];
  for (const message of [...output.messages].sort((a, b) => a.turn - b.turn)) {
    const result = await runEnsembleWithVotes({
      kind: 'binary',
      judge,
      slots: {
        description: scenario.description,
        goal: scenario.goal.content,
        requirements: renderRequirements(requirements),
        agent_name: names.get(message.agentId) ?? message.agentId,
        message: message.text,
      },
      models: context.models(),
      emit: context.emit,
      target: pacScoreTarget({ kind: 'turn', turn: message.turn }),
      ...signalOf(context),
    });
    const votes = result.parsedVotes.map((vote) =>
      vote.parsed === undefined ? undefined : requirementDecisions({ evaluation: vote.parsed, count }),
    );
    perMessage.push({
      turn: message.turn,
      decisions: requirements.map((_, index) => majorityDecision(votes.map((vote) => vote?.[index] ?? 'error'))),
      calls: result.judgeCallIds,
      ...(result.error === undefined ? {} : { error: result.error }),
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
