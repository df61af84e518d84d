import { loadJudgeTemplate } from '../../../judges/index.js';
import { lazyTemplate, promptTemplatePath } from '../../../prompts/index.js';
import {
  judgeRequirements,
  type RequirementOutcome,
  renderRequirements,
  type TaskEvaluatorInput,
  taskJudge,
} from './task-evaluation.js';

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
}: TaskEvaluatorInput): Promise<RequirementOutcome[]> {
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
  const result = await judgeRequirements({
    judge: taskJudge({ template: TASK_ARTIFACT_TEMPLATE, count, parse: context.judgeParse ?? 'strict' }),
    count,
    slots: {
      description: scenario.description,
      goal: scenario.goal.content,
      requirements: renderRequirements(requirements),
      artifact: output.finalArtifact.text,
    },
    target: { name: 'artifact' },
    context,
  });
  return requirements.map((_, index) => {
    const decision = result.decisions[index] ?? 'error';
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
