import type { Defense, TaskKind } from '../spec/defense.js';
import { PlanValidationError } from '../spec/errors.js';
import { accessControlledRetrievalEntry } from './access-controlled-retrieval.js';
import type { DefenseEntry } from './defense-entry.js';
import { oneTwoThreeCheckFromParameter } from './one-two-three-check.js';
import { privacyPromptDefense } from './privacy-prompt.js';
import { createRoleChainDefense } from './role-chain-defense.js';
import { vanillaDefense } from './vanilla.js';

/** Every defense family, one line each. */
export const defenseRegistry: DefenseEntry[] = [
  {
    id: 'vanilla',
    aliases: [],
    description: vanillaDefense.description,
    usage: 'vanilla',
    parametric: false,
    create: () => vanillaDefense,
  },
  {
    id: 'privacy-prompt',
    aliases: ['ppe'],
    description: privacyPromptDefense.description,
    usage: 'privacy-prompt',
    parametric: false,
    create: () => privacyPromptDefense,
  },
  {
    id: 'chain',
    aliases: [],
    description:
      'PrivAct role chain over roles G V R E C X (e.g. chain:G>V>R, chain:G>[V,V]>R); the last stage answers.',
    usage: 'chain:<topology>',
    parametric: 'required',
    create: createRoleChainDefense,
  },
  {
    id: 'one-two-three-check',
    aliases: ['aifc'],
    description: '1-2-3 check (AIFC): extractor > checker > executor; `:upstream` reproduces upstream prompt quirks.',
    usage: 'one-two-three-check[:upstream]',
    parametric: 'optional',
    create: oneTwoThreeCheckFromParameter,
  },
  accessControlledRetrievalEntry,
];

/**
 * Resolves a `--defense` argument (`vanilla`, an alias, or `family:parameter`) to a Defense
 * and checks that it applies to the suite's task kind. A family declares whether it takes a
 * parameter: `'required'`, `'optional'` or not at all.
 */
export function resolveDefense({ id, taskKind }: { id: string; taskKind: TaskKind }): Defense {
  const colon = id.indexOf(':');
  const family = colon === -1 ? id : id.slice(0, colon);
  const parameter = colon === -1 ? undefined : id.slice(colon + 1);
  const entry = defenseRegistry.find((candidate) => candidate.id === family || candidate.aliases.includes(family));
  if (!entry) {
    const known = defenseRegistry.map((candidate) => candidate.usage).join(', ');
    throw new PlanValidationError(`unknown defense '${id}': use one of ${known} (see \`confidant list defenses\`)`);
  }
  if (entry.parametric === 'required' && !parameter) {
    throw new PlanValidationError(`defense '${family}' needs a parameter: ${entry.usage}`);
  }
  if (entry.parametric === 'optional' && parameter === '') {
    throw new PlanValidationError(`defense '${family}' has an empty parameter after ':'; write it as ${entry.usage}`);
  }
  if (entry.parametric === false && parameter !== undefined) {
    throw new PlanValidationError(`defense '${family}' takes no parameter; write it as '${entry.usage}'`);
  }
  const defense = entry.create(parameter);
  if (!defense.appliesTo.includes(taskKind)) {
    throw new PlanValidationError(
      `defense '${id}' does not apply to ${taskKind} tasks (it applies to ${defense.appliesTo.join(', ')})`,
    );
  }
  return defense;
}
