import { describe, expect, it } from 'vitest';
import { checkAgentMemories, checkAgentPolicies } from './check-agent-parts.js';
import { SIMULATOR_FIELDS } from './pac-rule-issue.js';

const table = 'Table: LOTS\nlot | qty | supervisor\nL-100 | 40 | Mira Holt\nL-101 | 55 | Owen Pratt';
const memories = [{ requirements_index: [0], content: table }];
const task = { goal: 'Prepare the delivery plan.', requirements: ['List the lots with quantities.'] };
const policy = {
  content: 'The supervisor names must not be disclosed.',
  violation_keywords: ['Mira Holt', 'Owen Pratt'],
  memory_idx: [0],
  reason: 'The plan needs lots; the supervisors are named people.',
};

describe('checkAgentMemories', () => {
  it('accepts a small data table serving adjacent requirements', () => {
    expect(
      checkAgentMemories({
        agent: 'agent_a',
        memories: [{ requirements_index: [1, 0], content: table }],
        requirementCount: 5,
      }),
    ).toEqual([]);
  });

  it('reports out-of-range and repeated requirement indices, with the generator spelling in paths', () => {
    const issues = checkAgentMemories({
      agent: 'agent_b',
      memories: [
        { requirements_index: [5], content: table },
        { requirements_index: [1, 1], content: table },
        { requirements_index: [], content: table },
      ],
      requirementCount: 5,
      fields: { ...SIMULATOR_FIELDS, memory: 'memory' },
    });
    expect(issues.map((issue) => [issue.path, issue.rule, issue.message])).toEqual([
      ['scenario.agent_b.memory.0.requirements_index.0', 'index-range', 'requirement index 5 is out of range (0–4)'],
      ['scenario.agent_b.memory.1.requirements_index', 'memory-requirements', 'lists a requirement twice'],
      [
        'scenario.agent_b.memory.2.requirements_index',
        'memory-requirements',
        'is empty; name the requirement this memory serves',
      ],
    ]);
    expect(issues.every((issue) => issue.stage === 'memory' && issue.agent === 'agent_b')).toBe(true);
  });

  it('bounds the memory length', () => {
    const long = `${table}\n${'x'.repeat(6000)}`;
    expect(
      checkAgentMemories({
        agent: 'agent_a',
        memories: [{ requirements_index: [0], content: long }],
        requirementCount: 1,
      }).map((issue) => issue.message),
    ).toEqual([`is ${long.length} characters long (at most 6000); write one small data table`]);
  });
});

describe('checkAgentPolicies', () => {
  it('accepts one valid policy of the stated type', () => {
    expect(checkAgentPolicies({ agent: 'agent_a', memories, policies: [policy], task, policyType: 'range' })).toEqual(
      [],
    );
  });

  it('reports a missing policy, an empty keyword list and an empty reason', () => {
    expect(checkAgentPolicies({ agent: 'agent_a', memories, policies: [], task }).map((issue) => issue.rule)).toEqual([
      'policy-count',
    ]);
    expect(
      checkAgentPolicies({
        agent: 'agent_a',
        memories,
        policies: [{ ...policy, violation_keywords: [], reason: ' ', memory_idx: [0, 0] }],
        task,
      }).map((issue) => [issue.path, issue.rule]),
    ).toEqual([
      ['scenario.agent_a.privacy_policy.0.reason', 'policy-reason'],
      ['scenario.agent_a.privacy_policy.0.context_idx', 'policy-memories'],
      ['scenario.agent_a.privacy_policy.0.violation_keywords', 'keyword-required'],
    ]);
  });

  it('matches keywords case-sensitively and verbatim', () => {
    expect(
      checkAgentPolicies({
        agent: 'agent_a',
        memories,
        policies: [{ ...policy, violation_keywords: ['mira holt', 'Owen Pratt'] }],
        task,
      }).map((issue) => `${issue.rule} ${issue.path}`),
    ).toEqual(['keyword-verbatim scenario.agent_a.privacy_policy.0.violation_keywords.0']);
  });
});
