import type { Defense, TaskKind } from '../spec/defense.js';
import { PlanValidationError } from '../spec/errors.js';
import type { DefenseEntry } from './defense-entry.js';
import { privacyPromptDefense } from './privacy-prompt.js';
import { vanillaDefense } from './vanilla.js';

/**
 * A defense family as `--defense` and `confidant list defenses` know it, with its implementation
 * loaded on first use: a run imports the role-chain, 1-2-3 check and retrieval code only when it
 * names one of those defenses. `load` resolves to the family's `create` (see {@link DefenseEntry}).
 */
export type DefenseFamily = Omit<DefenseEntry, 'create'> & { load(): Promise<DefenseEntry['create']> };

/** What access-controlled retrieval's default (`secret-acl`) policy says of itself. */
export const ACCESS_CONTROLLED_RETRIEVAL_DESCRIPTION =
  'Access-controlled retrieval: hides chunks carrying secrets the requester is not authorized for, before top-k.';

/** Every defense family, one entry each, in listing order. */
export const defenseFamilies: DefenseFamily[] = [
  {
    id: 'vanilla',
    aliases: [],
    description: vanillaDefense.description,
    usage: 'vanilla',
    parametric: false,
    load: async () => () => vanillaDefense,
  },
  {
    id: 'privacy-prompt',
    aliases: ['ppe'],
    description: privacyPromptDefense.description,
    usage: 'privacy-prompt',
    parametric: false,
    load: async () => () => privacyPromptDefense,
  },
  {
    id: 'chain',
    aliases: [],
    description:
      'PrivAct role chain over roles G V R E C X (e.g. chain:G>V>R, chain:G>[V,V]>R); the last stage answers.',
    usage: 'chain:<topology>',
    parametric: 'required',
    load: async () => (await import('./role-chain-defense.js')).createRoleChainDefense,
  },
  {
    id: 'one-two-three-check',
    aliases: ['aifc'],
    description: '1-2-3 check (AIFC): extractor > checker > executor; `:upstream` reproduces upstream prompt quirks.',
    usage: 'one-two-three-check[:upstream]',
    parametric: 'optional',
    load: async () => (await import('./one-two-three-check.js')).oneTwoThreeCheckFromParameter,
  },
  {
    id: 'access-controlled-retrieval',
    aliases: ['acr'],
    description: ACCESS_CONTROLLED_RETRIEVAL_DESCRIPTION,
    usage: 'access-controlled-retrieval[:secret-acl|:participants]',
    parametric: 'optional',
    load: async () => (await import('./access-controlled-retrieval.js')).accessControlledRetrievalFromParameter,
  },
];

/**
 * The family a `--defense` argument (`vanilla`, an alias, or `family:parameter`) names, and its
 * parameter, from `families`; a PlanValidationError for an unknown family or a parameter the
 * family does not take (`'required'`, `'optional'` or not at all).
 */
export function findDefenseFamily<Entry extends Omit<DefenseEntry, 'create'>>({
  id,
  families,
}: {
  id: string;
  families: readonly Entry[];
}): { entry: Entry; parameter: string | undefined } {
  const colon = id.indexOf(':');
  const family = colon === -1 ? id : id.slice(0, colon);
  const parameter = colon === -1 ? undefined : id.slice(colon + 1);
  const entry = families.find((candidate) => candidate.id === family || candidate.aliases.includes(family));
  if (!entry) {
    const known = families.map((candidate) => candidate.usage).join(', ');
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
  return { entry, parameter };
}

/** `defense`, or a PlanValidationError when it does not apply to the suite's task kind. */
export function checkDefenseApplies({ id, defense, taskKind }: { id: string; defense: Defense; taskKind: TaskKind }) {
  if (!defense.appliesTo.includes(taskKind)) {
    throw new PlanValidationError(
      `defense '${id}' does not apply to ${taskKind} tasks (it applies to ${defense.appliesTo.join(', ')})`,
    );
  }
  return defense;
}

/**
 * Resolves a `--defense` argument as `resolveDefense` (registry.ts) does, with the same errors,
 * importing only the named family's implementation.
 */
export async function loadDefense({ id, taskKind }: { id: string; taskKind: TaskKind }): Promise<Defense> {
  const { entry, parameter } = findDefenseFamily({ id, families: defenseFamilies });
  const create = await entry.load();
  return checkDefenseApplies({ id, defense: create(parameter), taskKind });
}
