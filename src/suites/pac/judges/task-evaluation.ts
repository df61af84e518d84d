import { z } from 'zod';
import { type JsonJudgeDefinition, type JudgeTemplate, jsonReplies } from '../../../judges/index.js';
import type { ScoreTarget } from '../../../spec/score-target.js';
import type { PacOutput } from '../pac-output.js';
import type { PacScenario } from '../scenario-schema.js';
import { defineJsonJudge } from './define-json-judge.js';
import { majorityDecision, runEnsembleWithVotes } from './ensemble-votes.js';
import { type PacJudgeContext, signalOf } from './judge-models.js';
import { asRecord, type PacJudgeParse, pyTruthy, readUpstreamJson } from './upstream-reading.js';

/** What either task evaluator (artifact or messages mode) is given: the scenario, the run's output, the judges. */
export type TaskEvaluatorInput = { scenario: PacScenario; output: PacOutput; context: PacJudgeContext };

/** What a task judge concluded about one goal requirement for the whole run (§7.1). */
export type RequirementOutcome = {
  /** 0-based requirement index. */
  index: number;
  status: 'achieved' | 'not-achieved' | 'error';
  /** Global turns of the messages that achieved it, ascending (messages and markers modes). */
  turns: number[];
  /** Whether the final shared folder achieved it (artifact and markers modes). */
  inArtifact: boolean;
  /** Judge-call event ids behind the outcome (the achieving calls, or the failed ones for `error`). */
  judgeCalls: string[];
  explanation?: string;
};

const booleanWord = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  return word === 'true' || word === 'yes' ? true : word === 'false' || word === 'no' ? false : value;
};
const integerText = (value: unknown): unknown =>
  typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;

/**
 * The task judges' reply (§7.1): one entry per requirement. `achieved` also accepts the words
 * true/false/yes/no and `index` a digit string, which judges sometimes write; `reasoning` may be absent.
 */
export const taskEvaluationSchema = z.object({
  evaluations: z.array(
    z.object({
      index: z.preprocess(integerText, z.int().nonnegative()),
      achieved: z.preprocess(booleanWord, z.boolean()),
      reasoning: z.string().default(''),
    }),
  ),
});
/** Parsed {@link taskEvaluationSchema}. */
export type TaskEvaluation = z.infer<typeof taskEvaluationSchema>;

/**
 * Per requirement 0..count-1, whether the reply says achieved. The first entry for an index
 * counts; a missing index is not achieved (as upstream); indices past the list are ignored.
 */
export function requirementDecisions({ evaluation, count }: { evaluation: TaskEvaluation; count: number }): boolean[] {
  return Array.from({ length: count }, (_, index) => {
    const entry = evaluation.evaluations.find((candidate) => candidate.index === index);
    return entry?.achieved === true;
  });
}

/**
 * `judgeParse=upstream` (PAC-Bench `task.py` `_parse_response`), as one entry per requirement: a
 * requirement is achieved when ANY entry for its index is truthy in Python's sense (so `"false"`
 * counts, and an index given twice, false then true, is achieved); a missing `index` is 0, an index
 * past the list or negative is ignored, a missing `achieved` is false. A reply upstream cannot
 * read (`null`, not an object, a non-integer index) makes every requirement not achieved for this
 * message, where `strict` records an error.
 */
export function upstreamTaskEvaluation({ value, count }: { value: unknown; count: number }): TaskEvaluation {
  const achieved = Array.from({ length: count }, () => false);
  const result = () => ({ evaluations: achieved.map((each, index) => ({ index, achieved: each, reasoning: '' })) });
  const none = () => ({
    evaluations: Array.from({ length: count }, (_, index) => ({ index, achieved: false, reasoning: '' })),
  });
  const items = asRecord(value)?.evaluations ?? [];
  if (asRecord(value) === undefined || !Array.isArray(items)) return none();
  for (const raw of items) {
    const item = asRecord(raw);
    if (item === undefined) return none();
    const given = item.index ?? 0;
    const index = typeof given === 'boolean' ? Number(given) : given;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < -count) return none();
    if (index < 0 || index >= count) continue;
    if (pyTruthy(item.achieved ?? false)) achieved[index] = true;
  }
  return result();
}

/** The requirements as the task templates show them: `<i>. <text>`, numbered from 0. */
export function renderRequirements(requirements: readonly string[]): string {
  return requirements.map((requirement, index) => `${index}. ${requirement}`).join('\n');
}

/**
 * A task judge over `count` requirements. Its own verdict (`pass` when every requirement is
 * achieved, value = the number achieved) only describes one call; the run's outcome is combined
 * per requirement by the caller.
 */
export function taskJudge({
  template,
  count,
  parse = 'strict',
}: {
  template: JudgeTemplate;
  count: number;
  parse?: PacJudgeParse;
}): JsonJudgeDefinition<TaskEvaluation> {
  const every = (achieved: boolean) => ({
    evaluations: Array.from({ length: count }, (_, index) => ({ index, achieved, reasoning: 'a scripted example' })),
  });
  return defineJsonJudge({
    template,
    ...(parse === 'upstream'
      ? {
          schema: z.unknown().transform((value) => upstreamTaskEvaluation({ value, count })),
          readReply: (text: string) => readUpstreamJson(text, { fenced: true }),
        }
      : { schema: taskEvaluationSchema }),
    exampleReplies: jsonReplies({ pass: every(true), fail: every(false) }),
    toVerdict: (evaluation) => {
      const achieved = requirementDecisions({ evaluation, count }).filter(Boolean).length;
      return { verdict: achieved === count ? 'pass' : 'fail', value: achieved, label: `${achieved}/${count}` };
    },
  });
}

/** One ensemble judgment of every requirement: a majority decision per requirement, with its calls. */
export type RequirementJudgment = {
  /** Per requirement (by index): the judge models' majority decision, `error` when it failed. */
  decisions: Array<boolean | 'error'>;
  judgeCallIds: string[];
  error?: string;
};

/**
 * Runs the task judge once over all `count` requirements with every judge model (slots as given)
 * and decides each requirement by majority of the models' votes; a vote whose reply did not parse
 * counts as `error` for every requirement.
 */
export async function judgeRequirements({
  judge,
  count,
  slots,
  target,
  context,
}: {
  judge: JsonJudgeDefinition<TaskEvaluation>;
  count: number;
  slots: Readonly<Record<string, string>>;
  target: ScoreTarget;
  context: PacJudgeContext;
}): Promise<RequirementJudgment> {
  const result = await runEnsembleWithVotes({
    kind: 'binary',
    judge,
    slots,
    models: context.models(),
    emit: context.emit,
    target,
    ...signalOf(context),
  });
  const votes = result.parsedVotes.map((vote) =>
    vote.parsed === undefined ? undefined : requirementDecisions({ evaluation: vote.parsed, count }),
  );
  return {
    decisions: Array.from({ length: count }, (_, index) =>
      majorityDecision(votes.map((vote) => vote?.[index] ?? 'error')),
    ),
    judgeCallIds: result.judgeCallIds,
    ...(result.error === undefined ? {} : { error: result.error }),
  };
}
