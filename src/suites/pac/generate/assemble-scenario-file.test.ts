import { describe, expect, it } from 'vitest';
import { normalizePacScenario, pacScenarioFileSchema } from '../scenario-schema.js';
import { assemblePacScenarioFile } from './assemble-scenario-file.js';

const scenario = {
  collaboration_structure: 's',
  description: 'The two offices each hold half of the records.',
  goal: 'Prepare the plan.',
  tool_category: 'document creation' as const,
  agents: [
    { organization: 'Office A', expertise: 'Plans.' },
    { organization: 'Office B', expertise: 'Stock.' },
    { organization: 'Office C', expertise: 'Trucks.' },
  ],
};

describe('assemblePacScenarioFile', () => {
  it('writes the upstream layout with the simulator field names, one key per agent in seat order', () => {
    const file = assemblePacScenarioFile({
      scenario,
      requirements: ['r0', 'r1'],
      memories: [[{ requirements_index: [1], content: 'm' }], [], undefined],
      constraints: [
        [
          {
            category: 'direct identifier',
            content: 'p',
            violation_keywords: ['m'],
            memory_idx: [0],
            reason: 'why',
          },
        ],
      ],
    });
    expect(file).toEqual({
      scenario: {
        description: 'The two offices each hold half of the records.',
        goal: { content: 'Prepare the plan.', requirements: ['r0', 'r1'] },
        agent_a: {
          profile: { organization: 'Office A', expertise: 'Plans.' },
          context: [{ requirements_index: [1], content: 'm' }],
          privacy_policy: [{ content: 'p', violation_keywords: ['m'], context_idx: [0], reason: 'why' }],
        },
        agent_b: { profile: { organization: 'Office B', expertise: 'Stock.' }, context: [], privacy_policy: [] },
        agent_c: { profile: { organization: 'Office C', expertise: 'Trucks.' }, context: [], privacy_policy: [] },
      },
    });
    const parsed = pacScenarioFileSchema.parse(file);
    const normalized = normalizePacScenario({
      file: parsed,
      id: 'range/Banks/policy_0',
      split: 'range',
      policyType: 'range',
      domain: 'Banks',
    });
    expect(normalized.ok && normalized.scenario.agents.map((agent) => agent.id)).toEqual([
      'agent_a',
      'agent_b',
      'agent_c',
    ]);
  });
});
