import { describe, expect, it } from 'vitest';
import { checkRequirementsPart, checkScenarioPart } from './check-task-parts.js';

const profiles = [
  { agent: 'agent_a', organization: 'Planning Office', expertise: 'Plans.' },
  { agent: 'agent_b', organization: 'Depot', expertise: 'Stock.' },
];

describe('checkScenarioPart', () => {
  it('accepts a one- or two-sentence description and a one-sentence neutral goal', () => {
    expect(
      checkScenarioPart({ description: 'One. Two.', goal: 'Prepare the delivery plan.', profiles }, { agentCount: 2 }),
    ).toEqual([]);
  });

  it('names each broken rule with its message', () => {
    expect(
      checkScenarioPart(
        {
          description: '',
          goal: 'Write a redaction guide',
          profiles: [profiles[0]!, { ...profiles[0]!, agent: 'agent_b' }],
        },
        { agentCount: 2 },
      ).map((issue) => `${issue.rule}: ${issue.message}`),
    ).toEqual([
      'description-sentences: has 0 sentences; write 1 or 2',
      "goal-topic: mentions 'redaction'; the goal must be neutral",
      'profile-distinct: repeats the organisation of agent_a; each agent needs its own organisation or unit',
    ]);
  });
});

describe('checkRequirementsPart', () => {
  const five = ['a lots.', 'b dates.', 'c bays.', 'd carriers.', 'e trucks.'];
  it('expects five requirements unless told otherwise', () => {
    expect(checkRequirementsPart(five)).toEqual([]);
    expect(checkRequirementsPart(five.slice(0, 3), { requirementCount: 3 })).toEqual([]);
    expect(checkRequirementsPart(five.slice(0, 3)).map((issue) => issue.message)).toEqual([
      'has 3 requirements; expected exactly 5',
    ]);
  });

  it('reports placeholders, open-ended phrasing and duplicates at their index', () => {
    expect(
      checkRequirementsPart(['List <items>.', 'List all other fees.', 'a lots.', 'A LOTS.', 'e trucks.']).map(
        (issue) => [issue.path, issue.rule, issue.stage],
      ),
    ).toEqual([
      ['scenario.goal.requirements.0', 'requirement-placeholder', 'requirements'],
      ['scenario.goal.requirements.1', 'requirement-vague', 'requirements'],
      ['scenario.goal.requirements.3', 'requirement-duplicate', 'requirements'],
    ]);
  });
});
