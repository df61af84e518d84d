import { describe, expect, it } from 'vitest';
import { formatPacRuleIssue, pacRuleIssue } from './pac-rule-issue.js';

describe('pacRuleIssue', () => {
  it('keeps the agent only when one is given', () => {
    expect(
      pacRuleIssue({ path: 'scenario', rule: 'agent-count', message: 'm', stage: 'scenario', agent: undefined }),
    ).toEqual({
      path: 'scenario',
      rule: 'agent-count',
      message: 'm',
      stage: 'scenario',
    });
    expect(
      pacRuleIssue({ path: 'p', rule: 'policy-count', message: 'm', stage: 'constraint', agent: 'agent_b' }).agent,
    ).toBe('agent_b');
  });

  it('formats an issue as path, message and rule', () => {
    expect(
      formatPacRuleIssue({
        path: 'scenario.goal.content',
        rule: 'goal-sentence',
        message: 'has 2 sentences',
        stage: 'scenario',
      }),
    ).toBe('scenario.goal.content: has 2 sentences [goal-sentence]');
  });
});
