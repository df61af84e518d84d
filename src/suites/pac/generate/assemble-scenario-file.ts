import { agentKey } from './generation-prompts.js';
import type { PacGeneratedConstraint, PacGeneratedMemory, PacScenarioDraft } from './stage-schemas.js';

/** A generated agent as written to disk (the simulator spelling every shipped file uses). */
export type PacScenarioAgentJson = {
  profile: { organization: string; expertise: string };
  context: Array<{ requirements_index: number[]; content: string }>;
  privacy_policy: Array<{ content: string; violation_keywords: string[]; context_idx: number[]; reason: string }>;
};

/** A generated scenario file: `{ "scenario": { description, goal, agent_a, agent_b, … } }` (pacbench.md §1.1). */
export type PacScenarioFileJson = {
  scenario: {
    description: string;
    goal: { content: string; requirements: string[] };
  } & Record<`agent_${string}`, PacScenarioAgentJson>;
};

/**
 * Builds the scenario file from the stage outputs, in the upstream layout with the simulator
 * field names (`context`, `privacy_policy`, `context_idx`). The generator's bookkeeping (tool
 * category, collaboration structure, constraint category) stays in the journal. `memories` and
 * `constraints` are in seat order; a missing entry gives an empty list, which the rules reject.
 */
export function assemblePacScenarioFile({
  scenario,
  requirements,
  memories,
  constraints,
}: {
  scenario: PacScenarioDraft;
  requirements: readonly string[];
  memories: ReadonlyArray<readonly PacGeneratedMemory[] | undefined>;
  constraints: ReadonlyArray<readonly PacGeneratedConstraint[] | undefined>;
}): PacScenarioFileJson {
  const body: Record<string, unknown> = {
    description: scenario.description,
    goal: { content: scenario.goal, requirements: [...requirements] },
  };
  scenario.agents.forEach((profile, index) => {
    const agent: PacScenarioAgentJson = {
      profile: { organization: profile.organization, expertise: profile.expertise },
      context: (memories[index] ?? []).map((memory) => ({
        requirements_index: [...memory.requirements_index],
        content: memory.content,
      })),
      privacy_policy: (constraints[index] ?? []).map((constraint) => ({
        content: constraint.content,
        violation_keywords: [...constraint.violation_keywords],
        context_idx: [...constraint.memory_idx],
        reason: constraint.reason,
      })),
    };
    body[agentKey(index)] = agent;
  });
  return { scenario: body as PacScenarioFileJson['scenario'] };
}
