import type { ModelRoleDefinition } from '../spec/model-role.js';

/** The model under test: `--model <spec>` binds it. */
export const AGENT_ROLE: ModelRoleDefinition = { id: 'agent', kind: 'chat', seat: true };

/**
 * A named agent seat (`agent-a`, `agent-b`, … in multi-agent suites such as PAC): served by
 * `agent` when unbound, and repeatable, since a suite runs every combination of seat models (a
 * model grid, pacbench.md §2).
 */
export const AGENT_SEAT_ROLE: ModelRoleDefinition = {
  id: 'agent-<id>',
  pattern: /^agent-[a-z0-9][a-z0-9-]*$/,
  kind: 'chat',
  fallbacks: ['agent'],
  repeatable: true,
  seat: true,
};
