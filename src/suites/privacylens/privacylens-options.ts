import { z } from 'zod';
import type { Defense } from '../../spec/defense.js';
import { flagDescription } from '../suite-entry.js';
import { PROMPT_LAYOUTS } from './agent-prompt.js';
import { HELPFULNESS_PARSES } from './helpfulness-judge.js';
import { JUDGE_PROTOCOLS, LEAK_PARSES } from './leak-judge.js';
import { SPLITS, SUBSETS } from './load-cases.js';
import { LLAMA_HEADER_RULES, POSTPROCESS_MODES, type PostprocessMode } from './parse-action.js';
import { privacylensEntry } from './privacylens-entry.js';

const booleanWord = (value: unknown) => (value === true ? 'true' : value === false ? 'false' : value);

/**
 * How the judges' replies and the agent's header are read, shared by `privacylens` and
 * `privact-tree` (docs/fidelity.md): each option's `upstream` value is what
 * {@link PRIVACYLENS_UPSTREAM_OPTIONS} (`--fidelity upstream`) sets.
 */
export const privacyLensReadingShape = {
  helpfulnessParse: z
    .enum(HELPFULNESS_PARSES)
    .default('strict')
    .describe(
      "answer-line helpfulness parsing: strict (default), upstream-order (upstream's tests, errors kept) or upstream (exact)",
    ),
  leakParse: z
    .enum(LEAK_PARSES)
    .default('strict')
    .describe(
      "answer-line leak parsing: strict (default; unreadable is an error) or upstream (exact: no 'Yes' is no leak)",
    ),
  judgeReasoning: z
    .enum(['extract', 'keep'])
    .default('extract')
    .describe(
      'judge <think> blocks: extract (default; removed before parsing) or keep (parsed with the reply, as upstream)',
    ),
  llamaHeader: z
    .enum(LLAMA_HEADER_RULES)
    .default('confidant')
    .describe(
      "Llama-3 header in the agent's answer: confidant (default) or upstream (exact, drops the last character without <|eot_id|>)",
    ),
};

/** The options `--fidelity upstream` sets for `privacylens` and `privact-tree` (docs/fidelity.md). */
export const PRIVACYLENS_UPSTREAM_OPTIONS = {
  helpfulnessParse: 'upstream',
  leakParse: 'upstream',
  judgeReasoning: 'keep',
  llamaHeader: 'upstream',
} as const;

/**
 * PrivacyLens options (`--set key=value`; `--subset` and `--split` are flag sugar). Unknown keys are
 * rejected so a typo does not pass silently. `split` other than `all` needs the main set.
 */
export const privacyLensOptionsSchema = z
  .object({
    subset: z.enum(SUBSETS).default('main').describe(flagDescription(privacylensEntry, 'subset')),
    split: z.enum(SPLITS).default('all').describe("PrivAct's split of the main set: all, train (394) or test (99)"),
    promptLayout: z
      .enum(PROMPT_LAYOUTS)
      .default('single-user')
      .describe('single-user: one user message (upstream); system-user: the system line as a system message'),
    postprocess: z
      .enum(['auto', ...POSTPROCESS_MODES])
      .default('auto')
      .describe('how the answer is trimmed before judging; auto: privacylens, or none under a responder defense'),
    filterInvalid: z
      .preprocess(booleanWord, z.enum(['auto', 'true', 'false']))
      .default('auto')
      .describe('count only valid actions in leak_rate and leak_at_k; auto: true when epochs > 1 (PrivAct)'),
    judgeProtocol: z
      .enum(JUDGE_PROTOCOLS)
      .default('answer-line')
      .describe('judge reply format: answer-line (default) or json'),
    ...privacyLensReadingShape,
  })
  .strict()
  .superRefine((options, context) => {
    if (options.split !== 'all' && options.subset !== 'main') {
      context.addIssue({
        code: 'custom',
        path: ['split'],
        message: `the ${options.split} split exists only for the main set: use split=all with subset=${options.subset}`,
      });
    }
  });

/** Parsed PrivacyLens options. */
export type PrivacyLensOptions = z.infer<typeof privacyLensOptionsSchema>;

/** The post-processing a sample uses: the option, or for `auto` `none` under a responder defense, else `privacylens`. */
export function resolvePostprocess({
  option,
  defenses,
}: {
  option: PrivacyLensOptions['postprocess'];
  defenses: readonly Defense[];
}): PostprocessMode {
  if (option !== 'auto') return option;
  return defenses.some((defense) => defense.kind === 'responder') ? 'none' : 'privacylens';
}

/** Whether invalid actions are left out of leak_rate and leak_at_k: the option, or for `auto` K = epochs > 1. */
export function resolveFilterInvalid({
  option,
  epochs,
}: {
  option: PrivacyLensOptions['filterInvalid'];
  epochs: number;
}): boolean {
  return option === 'auto' ? epochs > 1 : option === 'true';
}
