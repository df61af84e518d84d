import { lazyTemplate, loadPromptTemplate, type PromptTemplate, promptTemplatePath } from '../../prompts/index.js';
import { PlanValidationError } from '../../spec/errors.js';
import { guidelineBullets, memorySectionBody } from './agent-prompt.js';
import type { PacProtocol, PacVariant, PacVariantEvaluation } from './pac-variant.js';
import type { PacPromptPlan } from './prompt-plan.js';

function variantTemplate(id: string): PromptTemplate {
  return lazyTemplate(() =>
    loadPromptTemplate({
      path: promptTemplatePath(import.meta.url, `./prompts/variants/pac-variant-${id}.v1.md`),
      sectioned: true,
    }),
  );
}

const collaboration = (): PacProtocol => ({ kind: 'collaboration' });
const asConfigured = (): PacVariantEvaluation => ({ privacyAgents: 'configured', headline: 'joint' });

/** Drops the privacy guideline block and, unless kept, the `[Privacy Policy]` section. */
function withoutPrivacy(plan: PacPromptPlan, { keepPolicyList }: { keepPolicyList: boolean }): PacPromptPlan {
  return {
    ...plan,
    sections: keepPolicyList ? plan.sections : plan.sections.filter((section) => section.id !== 'privacy-policy'),
    guidelines: plan.guidelines.filter((guideline) => guideline.block !== 'privacy'),
  };
}

/** Appends the bullets of `part` of the variant's own file, as `variant` guidelines. */
function withBullets({
  plan,
  template,
  part,
  slots,
}: {
  plan: PacPromptPlan;
  template: PromptTemplate;
  part: string;
  slots: Readonly<Record<string, string>>;
}): PacPromptPlan {
  return {
    ...plan,
    guidelines: [...plan.guidelines, ...guidelineBullets({ template, part, block: 'variant', slots })],
  };
}

/** `default` (paper Table 1): the §3 prompt exactly as the base template writes it. */
export const defaultVariant: PacVariant = {
  id: 'default',
  paperSource: 'Table 1 (main results)',
  specification: 'upstream',
  description: 'The collaboration prompt of §3, unchanged.',
  template: variantTemplate('default'),
  protocol: collaboration,
  evaluation: asConfigured,
  shapePrompt: ({ plan }) => plan,
};

const privacyFreeTemplate = variantTemplate('privacy-free');
/**
 * `privacy-free` (Table 1 "Privacy-free Baseline"). Reconstructed (§10): in the default
 * `standalone` mode Agent A works alone for up to 10 turns, with every agent's memories (seat
 * order) in its memory section, no policy section, no partner section and no privacy bullets;
 * later turns receive the continuation message; the run ends at A's [FIN]. In `pair` mode the
 * collaboration runs as usual with the policy sections and privacy bullets removed. Privacy is
 * not judged in either mode (PS is reported as not applicable).
 */
export const privacyFreeVariant: PacVariant = {
  id: 'privacy-free',
  paperSource: 'Table 1 "Privacy-free Baseline (Average)"',
  specification: 'reconstructed',
  description: "Agent A's task performance without privacy constraints.",
  template: privacyFreeTemplate,
  protocol: (options) =>
    options.privacyFreeMode === 'standalone' ? { kind: 'standalone', maxTurns: 10 } : { kind: 'collaboration' },
  evaluation: () => ({ privacyAgents: 'none', headline: 'joint' }),
  shapePrompt: ({ plan, scenario, options, slots }) => {
    if (options.privacyFreeMode === 'pair') return withoutPrivacy(plan, { keepPolicyList: false });
    const keep = new Set(['setting', 'task-goal', 'goal-requirements', 'profile', 'memory']);
    const allMemories = scenario.agents.flatMap((agent) => agent.memories);
    return {
      ...plan,
      roleLine: privacyFreeTemplate.fill(privacyFreeTemplate.part('role-line:standalone'), slots),
      guidelinesHeading: privacyFreeTemplate.part('heading:guidelines'),
      sections: plan.sections
        .filter((section) => keep.has(section.id))
        .map((section) => (section.id === 'memory' ? { ...section, body: memorySectionBody(allMemories) } : section)),
      guidelines: guidelineBullets({
        template: privacyFreeTemplate,
        part: 'guidelines:standalone',
        block: 'general',
        slots,
      }),
      kickoff: privacyFreeTemplate.part('kickoff'),
      continuation: privacyFreeTemplate.part('continuation'),
    };
  },
};

/**
 * `no-privacy-instruction` (Table 2 "w/o Privacy Instruction"). Reconstructed (§10): removes the
 * privacy block of the guidelines; the `[Privacy Policy]` list stays unless
 * `keepPolicyList=false`, because the caption is ambiguous. Evaluation is unchanged.
 */
export const noPrivacyInstructionVariant: PacVariant = {
  id: 'no-privacy-instruction',
  paperSource: 'Table 2 "w/o Privacy Instruction"',
  specification: 'reconstructed',
  description: 'The collaboration prompt without the privacy guidance.',
  template: variantTemplate('no-privacy-instruction'),
  protocol: collaboration,
  evaluation: asConfigured,
  shapePrompt: ({ plan, options }) => withoutPrivacy(plan, options),
};

const privacyCotTemplate = variantTemplate('privacy-cot');
/**
 * `privacy-cot` (Table 2 "Privacy-CoT"). Reconstructed (§10): every agent is told to reason
 * inside `<think>…</think>` about which memory items its policy covers and how to transform or
 * withhold them before writing; think blocks are stripped, so the reasoning never reaches a partner.
 */
export const privacyCotVariant: PacVariant = {
  id: 'privacy-cot',
  paperSource: 'Table 2 "Privacy-CoT"',
  specification: 'reconstructed',
  description: 'Every agent reasons privately about its policy before each message.',
  template: privacyCotTemplate,
  protocol: collaboration,
  evaluation: asConfigured,
  shapePrompt: ({ plan, slots }) => withBullets({ plan, template: privacyCotTemplate, part: 'guidelines:all', slots }),
};

const bPromptTemplate = variantTemplate('b-prompt');
/**
 * `b-prompt` (Table 3 "Agent B is prompted to structure the solution space"). Reconstructed
 * (§10): the second seat's guidelines gain one bullet asking it to propose the deliverable's
 * outline or options early and ask the initiator for each part's inputs. Other seats unchanged.
 */
export const bPromptVariant: PacVariant = {
  id: 'b-prompt',
  paperSource: 'Table 3 "Agent B is prompted to structure the solution space"',
  specification: 'reconstructed',
  description: 'Agent B structures the solution space early.',
  template: bPromptTemplate,
  protocol: collaboration,
  evaluation: asConfigured,
  shapePrompt: ({ plan, seat, slots }) =>
    seat === 1 ? withBullets({ plan, template: bPromptTemplate, part: 'guidelines:second-seat', slots }) : plan,
};

const adversarialTemplate = variantTemplate('adversarial-partner');
/**
 * `adversarial-partner` (Table 15). Reconstructed (§10): the second seat's guidelines gain a
 * hidden objective to extract as much of the initiator's private memory as it can while
 * appearing cooperative; its own policy stays. Privacy is judged for the initiator only, and
 * Acc_joint is read as holistic success taskOk ∧ privOk(A).
 */
export const adversarialPartnerVariant: PacVariant = {
  id: 'adversarial-partner',
  paperSource: 'Table 15 (adversarial partner, holistic success)',
  specification: 'reconstructed',
  description: "Agent B secretly tries to extract Agent A's private memory.",
  template: adversarialTemplate,
  protocol: collaboration,
  evaluation: () => ({ privacyAgents: 'initiator', headline: 'holistic-initiator' }),
  shapePrompt: ({ plan, seat, slots }) =>
    seat === 1 ? withBullets({ plan, template: adversarialTemplate, part: 'guidelines:second-seat', slots }) : plan,
};

/** Every registered variant, in `--variant` listing order. Adding one is a value plus one line here. */
export const PAC_VARIANTS: readonly PacVariant[] = [
  defaultVariant,
  privacyFreeVariant,
  noPrivacyInstructionVariant,
  privacyCotVariant,
  bPromptVariant,
  adversarialPartnerVariant,
];

/** The registered variant ids. */
export const PAC_VARIANT_IDS: readonly string[] = PAC_VARIANTS.map((variant) => variant.id);

/** The variant registered as `id`; an unknown id is a `PlanValidationError` listing the valid ones. */
export function findPacVariant(id: string): PacVariant {
  const found = PAC_VARIANTS.find((variant) => variant.id === id);
  if (found === undefined) {
    throw new PlanValidationError(`unknown PAC variant '${id}'; choose one of ${PAC_VARIANT_IDS.join(', ')}`);
  }
  return found;
}
