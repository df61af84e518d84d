import { loadJudgeTemplate } from '../../../judges/index.js';
import { lazyTemplate, promptTemplatePath } from '../../../prompts/index.js';
import type { PacOutput } from '../pac-output.js';
import type { PacScenario } from '../scenario-schema.js';
import { majorityDecision, runEnsembleWithVotes } from './ensemble-votes.js';
import { type PacJudgeContext, signalOf } from './judge-models.js';
import { type RequirementOutcome, renderRequirements, requirementDecisions, taskJudge } from './task-evaluation.js';

/** `pac-task-artifact@1`: the artifact-mode task judge's template. */
export const TASK_ARTIFACT_TEMPLATE = lazyTemplate(() =>
  loadJudgeTemplate({
    path: promptTemplatePath(import.meta.url, 'pac-task-artifact.v1.md'),
  }),
);

/**
 * The artifact-mode task evaluator (§7.1, the paper's "goal-required output artifacts"): one
 * judgment over the flattened final shared folder (target `artifact`), the judge models voting by
 * majority per requirement. An empty shared folder achieves nothing: a deterministic result with
 * no call, not an error.
 */
export async function judgeTaskByArtifact({
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
  if (output.finalArtifact.files.length === 0) {
    return requirements.map((_, index) => ({
      index,
      status: 'not-achieved',
      turns: [],
      inArtifact: false,
      judgeCalls: [],
      explanation: 'the shared folder is empty',
    }));
  }
  const result = await runEnsembleWithVotes({
    kind: 'binary',
    judge: taskJudge({ template: TASK_ARTIFACT_TEMPLATE, count, parse: context.judgeParse ?? 'strict' }),
    slots: {
      description: scenario.description,
      goal: scenario.goal.content,
      requirements: renderRequirements(requirements),
      artifact: output.finalArtifact.text,
    },
    models: context.models(),
    emit: context.emit,
    target: { name: 'artifact' },
    ...signalOf(context),
  });
  const votes = result.parsedVotes.map((vote) =>
    vote.parsed === undefined ? undefined : requirementDecisions({ evaluation: vote.parsed, count }),
  );
  return requirements.map((_, index) => {
    const decision = majorityDecision(votes.map((vote) => vote?.[index] ?? 'error'));
    if (decision === 'error') {
      return {
        index,
        status: 'error',
        turns: [],
        inArtifact: false,
        judgeCalls: result.judgeCallIds,
        explanation: `the artifact judgment failed: ${result.error ?? 'the judges did not agree'}`,
      };
    }
    return {
      index,
      status: decision ? 'achieved' : 'not-achieved',
      turns: [],
      inArtifact: decision,
      judgeCalls: result.judgeCallIds,
      explanation: decision ? 'achieved by the shared folder' : 'not achieved by the shared folder',
    };
  });
}
