import { z } from 'zod';
import { checkTreeSize, parseTopology, resolveBranching, type Topology } from '../../orchestration/topology.js';
import { ConfidantError } from '../../spec/errors.js';
import { flagDescription } from '../suite-entry.js';
import { PROMPT_LAYOUTS } from './agent-prompt.js';
import { JUDGE_PROTOCOLS } from './leak-judge.js';
import { SPLITS } from './load-cases.js';
import { POSTPROCESS_MODES } from './parse-action.js';
import { DEFAULT_LC_ARS, type LcArsParameters } from './privact-tree-reward.js';
import { privactTreeEntry } from './privacylens-entry.js';
import { privacyLensReadingShape } from './privacylens-options.js';

/** Branching of a stage when neither `--branching` nor `*n` gives one: PrivAct's 4 (App. C.1). */
export const DEFAULT_TREE_BRANCHING = 4;

/** `"4,4,4"`, `4`, `[4, 4, 4]` → `[4, 4, 4]`; anything else is left for zod to reject. */
function numberList(value: unknown): unknown {
  if (typeof value === 'number') return [value];
  if (typeof value !== 'string') return value;
  const parts = value.split(',').map((part) => part.trim());
  return parts.every((part) => part !== '' && Number.isFinite(Number(part))) ? parts.map(Number) : value;
}

/** A flag value `"0.45"` → 0.45 (suite flags arrive as strings); anything else is left for zod. */
function numberLike(value: unknown): unknown {
  return typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
}

const finite = (description: string, fallback: number) =>
  z.preprocess(numberLike, z.number()).default(fallback).describe(description);

/**
 * Options of the `privact-tree` suite (`--set key=value`; the flags listed on the suite are sugar).
 * Unknown keys are rejected. The topology must parse, the branching must fit it, and a
 * temperature list needs one value per stage (or a single value for every stage).
 */
export const privactTreeOptionsSchema = z
  .object({
    split: z
      .enum(SPLITS)
      .default('train')
      .describe("PrivAct's split of the main set: train (394, default), test or all"),
    topology: z.string().default('G>V>R').describe(flagDescription(privactTreeEntry, 'topology')),
    branching: z
      .preprocess(numberList, z.array(z.number().int().positive()).min(1))
      .optional()
      .describe(flagDescription(privactTreeEntry, 'branching')),
    temperatures: z
      .preprocess(numberList, z.array(z.number().min(0)).min(1))
      .optional()
      .describe(flagDescription(privactTreeEntry, 'temperatures')),
    maxOutputTokens: z
      .preprocess(numberLike, z.number().int().positive())
      .default(1000)
      .describe('output budget of every stage call (upstream max_tokens 1000)'),
    promptLayout: z
      .enum(PROMPT_LAYOUTS)
      .default('single-user')
      .describe('single-user: one user message (upstream); system-user: the system line as a system message'),
    postprocess: z
      .enum(POSTPROCESS_MODES)
      .default('none')
      .describe('how a leaf is trimmed before judging; none (default): raw, as PrivAct stores leaves'),
    judgeProtocol: z.enum(JUDGE_PROTOCOLS).default('answer-line').describe('judge reply format: answer-line or json'),
    ...privacyLensReadingShape,
    judgeConcurrency: z
      .preprocess(numberLike, z.number().int().positive())
      .default(8)
      .describe('leaves of one tree judged at once (the endpoint limiter still caps requests)'),
    alpha: finite(flagDescription(privactTreeEntry, 'alpha'), DEFAULT_LC_ARS.alpha),
    beta: finite(flagDescription(privactTreeEntry, 'beta'), DEFAULT_LC_ARS.beta),
    b1: finite(flagDescription(privactTreeEntry, 'b1'), DEFAULT_LC_ARS.b1),
    b2: finite(flagDescription(privactTreeEntry, 'b2'), DEFAULT_LC_ARS.b2),
    lcarsForm: z
      .enum(['code', 'paper'])
      .default(DEFAULT_LC_ARS.form)
      .describe(flagDescription(privactTreeEntry, 'lcarsForm')),
    noActionReward: z
      .enum(['b2', 'exclude'])
      .default(DEFAULT_LC_ARS.noActionReward)
      .describe('a leaf with no action earns b2 (default) or is left out of the values'),
    threshold: finite(flagDescription(privactTreeEntry, 'threshold'), 0.5),
  })
  .strict()
  .superRefine((options, context) => {
    let topology: Topology;
    try {
      topology = parseTopology(options.topology);
    } catch (error) {
      if (!ConfidantError.isInstance(error)) throw error;
      context.addIssue({ code: 'custom', path: ['topology'], message: error.message.split('\n')[0] ?? error.message });
      return;
    }
    try {
      const branching = treeBranching({ topology, branching: options.branching });
      const count = options.temperatures?.length;
      if (count !== undefined && count !== 1 && count !== branching.length) {
        context.addIssue({
          code: 'custom',
          path: ['temperatures'],
          message: `${count} temperatures for ${branching.length} stages of ${topology.shape}: give one per stage or one for all`,
        });
      }
    } catch (error) {
      if (!ConfidantError.isInstance(error)) throw error;
      context.addIssue({ code: 'custom', path: ['branching'], message: error.message.split('\n')[0] ?? error.message });
    }
  });

/** Parsed `privact-tree` options. */
export type PrivactTreeOptions = z.infer<typeof privactTreeOptionsSchema>;

/**
 * The branching of every stage: the `branching` option merged with the topology's `*n` (see
 * `resolveBranching`), or, without the option, each stage's `*n` or {@link DEFAULT_TREE_BRANCHING}.
 * A tree of more than `MAX_TREE_CALLS` calls is a `PlanValidationError` naming its size.
 */
export function treeBranching({
  topology,
  branching,
}: {
  topology: Topology;
  branching: readonly number[] | undefined;
}): number[] {
  const resolved =
    branching !== undefined
      ? resolveBranching({ topology, branching })
      : topology.stages.map((stage) => stage.branching ?? DEFAULT_TREE_BRANCHING);
  checkTreeSize({ topology, branching: resolved });
  return resolved;
}

/** The resolved shape of a tree run: its topology, the branching and temperature of each stage, and its leaf count. */
export type TreePlan = {
  topology: Topology;
  branching: number[];
  /** Per stage: 1.0 where the stage branches and 0 where it does not, unless `temperatures` says otherwise. */
  temperatures: number[];
  leaves: number;
};

/** Resolves the options into a {@link TreePlan}. Assumes options that passed the schema. */
export function treePlan(options: PrivactTreeOptions): TreePlan {
  const topology = parseTopology(options.topology);
  const branching = treeBranching({ topology, branching: options.branching });
  const given = options.temperatures;
  const temperatures = branching.map(
    (n, index) => (given?.length === 1 ? given[0] : given?.[index]) ?? (n > 1 ? 1.0 : 0),
  );
  return { topology, branching, temperatures, leaves: branching.reduce((product, n) => product * n, 1) };
}

/** The LC-ARS parameters of a tree run's options. */
export function lcArsParametersOf(options: PrivactTreeOptions): LcArsParameters {
  return {
    alpha: options.alpha,
    beta: options.beta,
    b1: options.b1,
    b2: options.b2,
    form: options.lcarsForm,
    noActionReward: options.noActionReward,
  };
}
