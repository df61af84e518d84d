import { describe, expect, it } from 'vitest';
import {
  pacConstraintReplySchema,
  pacMemoryReplySchema,
  pacRequirementsReplySchema,
  pacScenarioBatchSchema,
} from './stage-schemas.js';

const draft = {
  collaboration_structure: 'planner and depot',
  description: 'The planner and the depot each hold half of the records.',
  goal: 'Prepare the delivery plan.',
  tool_category: 'document creation',
  agents: [
    { organization: 'Planning', expertise: 'Plans.' },
    { organization: 'Depot', expertise: 'Stock.' },
  ],
};

describe('stage schemas', () => {
  it('accept well-formed replies', () => {
    expect(pacScenarioBatchSchema.parse({ scenarios: [draft] }).scenarios[0]?.tool_category).toBe('document creation');
    expect(pacRequirementsReplySchema.parse({ requirements: ['a', 'b'] }).requirements).toEqual(['a', 'b']);
    expect(
      pacMemoryReplySchema.parse({
        needs: [{ requirement_index: 0, type: 'B' }],
        memory: [{ requirements_index: [0], content: 't' }],
      }).memory,
    ).toHaveLength(1);
    expect(
      pacConstraintReplySchema.parse({
        privacy_constraint: [
          { category: 'quasi-identifier', content: 'c', violation_keywords: ['k'], memory_idx: [0], reason: 'r' },
        ],
      }).privacy_constraint,
    ).toHaveLength(1);
  });

  it('reject replies of the wrong shape', () => {
    expect(pacScenarioBatchSchema.safeParse({ scenarios: [] }).success).toBe(false);
    expect(pacScenarioBatchSchema.safeParse({ scenarios: [{ ...draft, tool_category: 'email' }] }).success).toBe(false);
    expect(pacScenarioBatchSchema.safeParse({ scenarios: [{ ...draft, agents: [draft.agents[0]] }] }).success).toBe(
      false,
    );
    expect(pacRequirementsReplySchema.safeParse({ requirements: [''] }).success).toBe(false);
    expect(
      pacMemoryReplySchema.safeParse({ needs: [], memory: [{ requirements_index: [-1], content: 't' }] }).success,
    ).toBe(false);
    expect(
      pacConstraintReplySchema.safeParse({
        privacy_constraint: [{ category: 'other', content: 'c', violation_keywords: [], memory_idx: [], reason: '' }],
      }).success,
    ).toBe(false);
  });

  it('leave content rules to the rule checks: two constraints still parse', () => {
    const constraint = {
      category: 'direct identifier',
      content: 'c',
      violation_keywords: [],
      memory_idx: [],
      reason: '',
    };
    expect(pacConstraintReplySchema.safeParse({ privacy_constraint: [constraint, constraint] }).success).toBe(true);
    expect(pacRequirementsReplySchema.safeParse({ requirements: ['only one'] }).success).toBe(true);
  });
});
