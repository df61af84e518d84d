import type { ModelRoleDefinition } from '../spec/model-role.js';
import type { ChainRole } from './topology.js';

/** The six chain stage roles in the grammar's order (`privact.md` §2.1). */
export const CHAIN_ROLE_IDS: readonly ChainRole[] = [
  'generator',
  'verifier',
  'refiner',
  'extractor',
  'checker',
  'executor',
];

/** The chain stages' model roles: each is served by the agent's own model when it is not bound. */
export const CHAIN_MODEL_ROLES: readonly ModelRoleDefinition[] = CHAIN_ROLE_IDS.map((id) => ({
  id,
  kind: 'chat',
  fallbacks: ['agent'],
}));
