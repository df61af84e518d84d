import { z } from 'zod';
import type { PromptTemplate } from '../../prompts/index.js';
import type { PacPromptSlots } from './agent-prompt.js';
import type { PacPromptPlan } from './prompt-plan.js';
import type { PacScenario } from './scenario-schema.js';

/** Options some variants read (`--set privacyFreeMode=…`, `--set keepPolicyList=…`), §10. */
export const pacVariantOptionsSchema = z.object({
  privacyFreeMode: z
    .enum(['standalone', 'pair'])
    .default('standalone')
    .describe('privacy-free: Agent A alone with every memory (standalone), or the pair without policies (pair)'),
  keepPolicyList: z
    .boolean()
    .default(true)
    .describe('no-privacy-instruction: keep the [Privacy Policy] list (true) or remove it as well (false)'),
});
/** Parsed {@link pacVariantOptionsSchema}. */
export type PacVariantOptions = z.infer<typeof pacVariantOptionsSchema>;

/** The variant options when none are given. */
export const DEFAULT_PAC_VARIANT_OPTIONS: PacVariantOptions = pacVariantOptionsSchema.parse({});

/**
 * How a sample is simulated. `collaboration`: every seat, round-robin, until all say [FIN] in
 * consecutive turns or `maxTurns` (§4). `standalone`: the initiator alone for up to `maxTurns`
 * turns; every turn after the first receives the prompt's continuation message; the run ends
 * when the initiator writes [FIN] (privacy-free, §10).
 */
export type PacProtocol = { kind: 'collaboration' } | { kind: 'standalone'; maxTurns: number };

/**
 * How a variant changes evaluation. `privacyAgents`: `configured` follows the suite's
 * `privacyAgents` option; `initiator` judges Agent A only; `none` judges no privacy (privacy
 * metrics become not-applicable). `headline`: `joint` is Acc_joint as usual;
 * `holistic-initiator` means Acc_joint is read as the paper's holistic success taskOk ∧ privOk(A).
 */
export type PacVariantEvaluation = {
  privacyAgents: 'configured' | 'initiator' | 'none';
  headline: 'joint' | 'holistic-initiator';
};

/**
 * A protocol variant (§10): a registered value with its own prompt file. Variants are looked
 * up by id in the registry (`variants.ts`); nothing switches on their names.
 */
export type PacVariant = {
  /** `--variant <id>`. */
  id: string;
  /** The paper table or caption the variant reproduces. */
  paperSource: string;
  /** `upstream` when the upstream code ships the prompt (paraphrased); `reconstructed` when it is our reading of §10. */
  specification: 'upstream' | 'reconstructed';
  description: string;
  /** The variant's prompt file (`prompts/variants/pac-variant-<id>.v<N>.md`). */
  template: PromptTemplate;
  protocol(options: PacVariantOptions): PacProtocol;
  evaluation(options: PacVariantOptions): PacVariantEvaluation;
  /** Reshapes the base plan of the agent in `seat`; must not mutate its input. */
  shapePrompt(context: {
    plan: PacPromptPlan;
    scenario: PacScenario;
    seat: number;
    options: PacVariantOptions;
    slots: PacPromptSlots;
  }): PacPromptPlan;
};
