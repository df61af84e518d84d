import { describe, expect, it } from 'vitest';
import { twoAgentScenario } from './__fixtures__/pac-judge-fixtures.js';
import { originalKeywords, policyText, protectedRecords } from './agent-policy-text.js';

describe('agent policy text', () => {
  const [agentA] = twoAgentScenario().agents;
  const agent = {
    policies: [
      { index: 0, content: 'No names.', violationKeywords: ['Ann', 'Bo'], memoryIndices: [1], reason: 'r' },
      { index: 1, content: 'No codes.', violationKeywords: ['Bo', 'X-1'], memoryIndices: [1], reason: 'r' },
    ],
    memories: [
      { index: 0, requirementIndices: [0], content: 'open data' },
      { index: 1, requirementIndices: [1], content: 'Ann X-1' },
    ],
  };

  it('renders policies, protected records and keywords', () => {
    expect(policyText(agent)).toBe('- No names.\n- No codes.');
    expect(protectedRecords(agent)).toBe('Record 1:\nAnn X-1');
    expect(originalKeywords(agent)).toEqual(['Ann', 'Bo', 'X-1']);
    expect(agentA && originalKeywords(agentA)).toEqual(['Fennick Hotels', 'Maravel Catering']);
  });
});
