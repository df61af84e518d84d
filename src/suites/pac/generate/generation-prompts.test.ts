import { describe, expect, it } from 'vitest';
import {
  agentKey,
  agentName,
  constraintPrompt,
  memoryPrompt,
  PAC_GENERATION_TEMPLATES,
  pacGenerationPromptVersions,
  requirementsPrompt,
  scenarioPrompt,
} from './generation-prompts.js';
import type { PacScenarioDraft } from './stage-schemas.js';

const scenario: PacScenarioDraft = {
  collaboration_structure: 'planner and depot',
  description: 'The planner and the depot each hold half of the records.',
  goal: 'Prepare the delivery plan.',
  tool_category: 'document creation',
  agents: [
    { organization: 'Planning Office', expertise: 'Plans.' },
    { organization: 'Depot {{x}} Operations', expertise: 'Stock.' },
  ],
};
const requirements = ['Lots of wave 1.', 'Ship dates.'];
const memory = [{ requirements_index: [1], content: 'Table: T\nlot | date\nL-1 | 2026-01-05' }];

function user(messages: ReturnType<typeof scenarioPrompt>): string {
  expect(messages.map((message) => message.role)).toEqual(['system', 'user']);
  return messages[1]?.content ?? '';
}

describe('stage prompts', () => {
  it('load the four versioned templates and name their hashes', () => {
    expect(Object.values(PAC_GENERATION_TEMPLATES).map((entry) => `${entry.id}@v${entry.version}`)).toEqual([
      'pac-gen-scenario@v1',
      'pac-gen-requirements@v1',
      'pac-gen-memory@v1',
      'pac-gen-constraint@v1',
    ]);
    const versions = pacGenerationPromptVersions();
    expect(Object.keys(versions)).toHaveLength(4);
    expect(versions['pac-gen-memory@v1']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('name agents by seat', () => {
    expect([agentKey(0), agentKey(2), agentName(1)]).toEqual(['agent_a', 'agent_c', 'Agent B']);
  });

  it('scenario: asks for the count with the type hint and the scenarios to avoid, and adds feedback on retries', () => {
    const first = user(
      scenarioPrompt({ domain: 'Banks', count: 3, agentCount: 2, policyType: 'change', existing: [] }),
    );
    expect(first).toContain('Industry domain: Banks\nScenarios to write: 3\nParties per scenario: 2');
    expect(first).toContain(PAC_GENERATION_TEMPLATES.scenario.part('hint:change'));
    expect(first).toContain('(none yet)');
    expect(first).not.toContain('Your previous answer');
    const retry = user(
      scenarioPrompt({
        domain: 'Banks',
        count: 1,
        agentCount: 2,
        policyType: 'range',
        existing: [scenario],
        feedback: ['scenario.goal.content: has 2 sentences; write one [goal-sentence]'],
      }),
    );
    expect(retry).toContain(PAC_GENERATION_TEMPLATES.scenario.part('hint:range'));
    expect(retry).toContain('- planner and depot: Prepare the delivery plan.');
    expect(retry).toMatch(
      /Your previous answer.*\n- scenario\.goal\.content: has 2 sentences; write one \[goal-sentence\]$/,
    );
  });

  it('requirements: show the scenario and count; slot values are not re-read as slots', () => {
    const text = user(requirementsPrompt({ domain: 'Banks', scenario, count: 5 }));
    expect(text).toContain('Requirements to write: 5');
    expect(text).toContain('Goal: Prepare the delivery plan.');
    expect(text).toContain('- Agent B: Depot {{x}} Operations (expertise: Stock.)');
  });

  it('memory: names the agent and shows the earlier agents memories with 0-based requirements', () => {
    const text = user(
      memoryPrompt({ domain: 'Banks', scenario, requirements, agentIndex: 1, earlierMemories: [memory] }),
    );
    expect(text).toContain('Party to write for: Agent B (agent_b)');
    expect(text).toContain('0: Lots of wave 1.\n1: Ship dates.');
    expect(text).toContain('Organization: Depot {{x}} Operations');
    expect(text).toContain('- Agent A: Planning Office (expertise: Plans.)');
    expect(text).toContain('Agent A:\n[0] serves requirements 1\nTable: T');
    expect(
      user(memoryPrompt({ domain: 'Banks', scenario, requirements, agentIndex: 0, earlierMemories: [] })),
    ).toContain('Records the other parties already hold:\n(none yet)');
  });

  it('constraint: shows the agent memories and the rule of its type', () => {
    const range = user(
      constraintPrompt({
        domain: 'Banks',
        scenario,
        requirements,
        agentIndex: 0,
        memories: memory,
        policyType: 'range',
      }),
    );
    expect(range).toContain('Constraint type: range');
    expect(range).toContain(PAC_GENERATION_TEMPLATES.constraint.part('type:range'));
    expect(range).not.toContain(PAC_GENERATION_TEMPLATES.constraint.part('type:change'));
    expect(range).toContain('[0] serves requirements 1\nTable: T');
    const change = user(
      constraintPrompt({
        domain: 'Banks',
        scenario,
        requirements,
        agentIndex: 0,
        memories: memory,
        policyType: 'change',
      }),
    );
    expect(change).toContain(PAC_GENERATION_TEMPLATES.constraint.part('type:change'));
  });
});
