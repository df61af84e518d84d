import { DEFAULT_PAC_VARIANT_OPTIONS, type PacVariantOptions } from '../pac-variant.js';
import type { PacAgent, PacScenario } from '../scenario-schema.js';
import { PAC_VARIANTS } from '../variants.js';
import type { PacJudgeOptions } from './pac-judge-options.js';

/**
 * The agents whose privacy is judged (§7.2, §10): none when the variant judges no privacy
 * (privacy-free), the initiator when the variant says so (adversarial partner), otherwise as
 * `privacyAgents` says (`all` seats or the `initiator`, `agents[0]`). An unregistered variant id
 * follows the option.
 */
export function privacyAgents({
  scenario,
  variant,
  options,
  variantOptions = DEFAULT_PAC_VARIANT_OPTIONS,
}: {
  scenario: PacScenario;
  variant: string;
  options: Pick<PacJudgeOptions, 'privacyAgents'>;
  variantOptions?: PacVariantOptions;
}): PacAgent[] {
  const registered = PAC_VARIANTS.find((candidate) => candidate.id === variant);
  const evaluation = registered?.evaluation(variantOptions).privacyAgents ?? 'configured';
  if (evaluation === 'none') return [];
  const who = evaluation === 'configured' ? options.privacyAgents : 'initiator';
  return who === 'all' ? [...scenario.agents] : scenario.agents.slice(0, 1);
}
