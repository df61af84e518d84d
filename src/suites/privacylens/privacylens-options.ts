import { z } from 'zod';
import type { Defense } from '../../spec/defense.js';
import { PROMPT_LAYOUTS } from './agent-prompt.js';
import { HELPFULNESS_PARSES } from './helpfulness-judge.js';
import { JUDGE_PROTOCOLS } from './leak-judge.js';
import { SPLITS, SUBSETS } from './load-cases.js';
import { POSTPROCESS_MODES, type PostprocessMode } from './parse-action.js';

const booleanWord = (value: unknown) => (value === true ? 'true' : value === false ? 'false' : value);

/**
 * PrivacyLens options (`--set key=value`; `--subset` and `--split` are flag sugar). Unknown keys are
 * rejected so a typo does not pass silently. `split` other than `all` needs the main set.
 */
export const privacyLensOptionsSchema = z
  .object({
    subset: z.enum(SUBSETS).default('main').describe('case file: main (493), confide (32) or culturebank (24)'),
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
    helpfulnessParse: z
      .enum(HELPFULNESS_PARSES)
      .default('strict')
      .describe("answer-line helpfulness parsing: strict (default) or upstream's order of tests"),
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
