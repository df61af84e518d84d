import { AGENT_ROLE, AGENT_SEAT_ROLE } from '../agents/agent-roles.js';
import { DATAGEN_ROLE } from '../datasets/datagen-role.js';
import { JUDGE_ROLE } from '../judges/judge-role.js';
import { createRoleCatalog, type RoleCatalog } from '../models/role-catalog.js';
import { CHAIN_MODEL_ROLES } from '../orchestration/chain-roles.js';
import { EMBEDDER_ROLE } from '../retrieval/embedder-role.js';
import { SUMMARIZER_ROLE } from '../suites/pac/pac-roles.js';
import { PROBER_ROLE } from '../suites/privacybench/privacybench-roles.js';

/**
 * Every role a run can bind, collected from the layers that define them: one line per
 * contributing layer. The order is the one `unknown role` messages list.
 */
export const MODEL_ROLES: RoleCatalog = createRoleCatalog([
  AGENT_ROLE,
  AGENT_SEAT_ROLE,
  ...CHAIN_MODEL_ROLES,
  PROBER_ROLE,
  JUDGE_ROLE,
  SUMMARIZER_ROLE,
  EMBEDDER_ROLE,
  DATAGEN_ROLE,
]);
