import { parseModelSpec } from '../../models/parse-model-spec.js';
import type { ModelRoles } from '../../spec/chat-model.js';
import { PlanValidationError } from '../../spec/errors.js';
import { parseReferenceSpec } from './reference-agents.js';
import type { PacScenario } from './scenario-schema.js';
import type { PacSeat } from './simulate-episode.js';

/**
 * One `--model` binding of a seat role (`agent`, `agent-a`, …), in flag order, as the CLI hands
 * them to the suite's `seats` option. Reference specs (`reference:oracle`) are kept here and
 * never resolved as models; the model specs are resolved by the CLI in the same order.
 */
export type PacSeatBinding = { role: string; spec: string };

/**
 * The model role of a seat: `agent_a` → `agent-a`; an id chosen in an `agents` list gets the
 * prefix, `buyer` → `agent-buyer`, `lead_seller` → `agent-lead-seller`.
 */
export function seatRole(agentId: string): string {
  const role = agentId.replace(/_/g, '-');
  return agentId.startsWith('agent_') ? role : `agent-${role}`;
}

/**
 * The pair-grouping label of a spec: a reference spec as written, a model spec as
 * `provider:model` (base URLs dropped, so no endpoint ends up in sample ids or reports).
 */
export function seatLabel(spec: string): string {
  if (parseReferenceSpec(spec) !== undefined) return spec;
  const parsed = parseModelSpec(spec);
  return `${parsed.provider}:${parsed.modelId}`;
}

/** The bindings that may fill a seat: its own role's, else the `agent` role's. */
export function seatCandidates({
  agentId,
  bindings,
}: {
  agentId: string;
  bindings: readonly PacSeatBinding[];
}): PacSeatBinding[] {
  const own = bindings.filter((binding) => binding.role === seatRole(agentId));
  return own.length > 0 ? own : bindings.filter((binding) => binding.role === 'agent');
}

/**
 * Checks that every seat of every scenario can be filled and that labels are unambiguous:
 * a `PlanValidationError` naming the flag to add, or the duplicate to remove. An empty binding
 * list is not checked (the model roles decide at run time, e.g. in library use).
 */
export function checkPacSeats({
  scenarios,
  bindings,
  seatCount,
}: {
  scenarios: readonly PacScenario[];
  bindings: readonly PacSeatBinding[];
  /** Seats that play per scenario (1 under a standalone variant), default all. */
  seatCount?: (scenario: PacScenario) => number;
}): void {
  if (bindings.length === 0) return;
  for (const binding of bindings) {
    try {
      seatLabel(binding.spec);
    } catch (error) {
      throw new PlanValidationError(
        `--model ${binding.role}=${binding.spec}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  for (const scenario of scenarios) {
    const playing = scenario.agents.slice(0, seatCount?.(scenario) ?? scenario.agents.length);
    for (const agent of playing) {
      const candidates = seatCandidates({ agentId: agent.id, bindings });
      if (candidates.length === 0) {
        throw new PlanValidationError(
          `scenario ${scenario.id} has ${scenario.agents.length} agents and nothing fills ${agent.displayName}: ` +
            `add --model ${seatRole(agent.id)}=<provider:model> (or reference:oracle), or --model <provider:model> for every seat`,
        );
      }
      const labels = candidates.map((candidate) => seatLabel(candidate.spec));
      const duplicate = labels.find((label, index) => labels.indexOf(label) !== index);
      if (duplicate !== undefined) {
        throw new PlanValidationError(
          `${seatRole(agent.id)} is given ${duplicate} twice: each model of a seat's grid must differ in provider:model`,
        );
      }
    }
  }
}

/**
 * The seat assignments of one scenario: the cross product of each playing seat's candidate
 * labels, as sample-variant entries (`agent_a` → label). Seats vary in seat order, the last
 * fastest (initiator × partner for the paper's grid). Empty bindings give one empty assignment.
 */
export function seatAssignments({
  scenario,
  bindings,
  seatCount = scenario.agents.length,
}: {
  scenario: PacScenario;
  bindings: readonly PacSeatBinding[];
  seatCount?: number;
}): Array<Record<string, string>> {
  if (bindings.length === 0) return [{}];
  let combos: Array<Record<string, string>> = [{}];
  for (const agent of scenario.agents.slice(0, seatCount)) {
    const labels = seatCandidates({ agentId: agent.id, bindings }).map((binding) => seatLabel(binding.spec));
    combos = combos.flatMap((combo) => labels.map((label) => ({ ...combo, [agent.id]: label })));
  }
  return combos;
}

/**
 * The seats that play in one sample (the first `seatCount`). With bindings, each seat takes the candidate whose label the sample
 * variant names: a reference agent, or the matching model of `models.ensemble(<seat role>)` (the
 * CLI resolves a role's model specs in flag order, reference specs left out). Without bindings,
 * each seat takes `models.model(<seat role>)` (falling back to `agent`), labelled
 * `provider:modelId`.
 */
export function resolvePacSeats({
  scenario,
  variant,
  bindings,
  models,
  seatCount = scenario.agents.length,
}: {
  scenario: PacScenario;
  variant: Readonly<Record<string, string>>;
  bindings: readonly PacSeatBinding[];
  models: ModelRoles;
  seatCount?: number;
}): PacSeat[] {
  return scenario.agents.slice(0, seatCount).map((agent): PacSeat => {
    const role = seatRole(agent.id);
    if (bindings.length === 0) {
      const model = models.model(role);
      return { agentId: agent.id, role, label: `${model.provider}:${model.modelId}`, kind: 'model', model };
    }
    const label = variant[agent.id];
    const candidates = seatCandidates({ agentId: agent.id, bindings });
    const chosen = candidates.find((candidate) => seatLabel(candidate.spec) === label);
    if (chosen === undefined) {
      throw new PlanValidationError(
        `sample variant names ${agent.id}=${label ?? '(none)'}, which no --model ${role}=… binding gives`,
      );
    }
    const policy = parseReferenceSpec(chosen.spec);
    if (policy !== undefined)
      return { agentId: agent.id, role: chosen.role, label: chosen.spec, kind: 'reference', policy };
    const modelBindings = bindings.filter(
      (binding) => binding.role === chosen.role && parseReferenceSpec(binding.spec) === undefined,
    );
    const model = models.ensemble(role)[modelBindings.indexOf(chosen)];
    if (model === undefined) {
      throw new PlanValidationError(
        `no resolved model for ${role}=${chosen.spec}; was it passed to the model resolver?`,
      );
    }
    return { agentId: agent.id, role: chosen.role, label: seatLabel(chosen.spec), kind: 'model', model };
  });
}
