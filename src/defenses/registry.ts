import type { Defense, TaskKind } from '../spec/defense.js';
import { accessControlledRetrievalFromParameter } from './access-controlled-retrieval.js';
import { checkDefenseApplies, defenseFamilies, findDefenseFamily } from './defense-catalog.js';
import type { DefenseEntry } from './defense-entry.js';
import { oneTwoThreeCheckFromParameter } from './one-two-three-check.js';
import { privacyPromptDefense } from './privacy-prompt.js';
import { createRoleChainDefense } from './role-chain-defense.js';
import { vanillaDefense } from './vanilla.js';

// Every family's implementation, imported up front for this synchronous library API; the CLI
// resolves `--defense` with `loadDefense` (defense-catalog.ts), which imports only the family named.
const creators: Record<string, DefenseEntry['create']> = {
  vanilla: () => vanillaDefense,
  'privacy-prompt': () => privacyPromptDefense,
  chain: createRoleChainDefense,
  'one-two-three-check': oneTwoThreeCheckFromParameter,
  'access-controlled-retrieval': accessControlledRetrievalFromParameter,
};

/** Every defense family, one line each: the catalog's families with their implementations. */
export const defenseRegistry: DefenseEntry[] = defenseFamilies.map(({ load: _load, ...family }) => {
  const create = creators[family.id];
  if (create === undefined) throw new Error(`defense family ${family.id} has no implementation in registry.ts`);
  return { ...family, create };
});

/**
 * Resolves a `--defense` argument (`vanilla`, an alias, or `family:parameter`) to a Defense
 * and checks that it applies to the suite's task kind. A family declares whether it takes a
 * parameter: `'required'`, `'optional'` or not at all.
 */
export function resolveDefense({ id, taskKind }: { id: string; taskKind: TaskKind }): Defense {
  const { entry, parameter } = findDefenseFamily({ id, families: defenseRegistry });
  return checkDefenseApplies({ id, defense: entry.create(parameter), taskKind });
}
