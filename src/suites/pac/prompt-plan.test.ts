import { describe, expect, it } from 'vitest';
import { type PacPromptPlan, renderPacPromptPlan } from './prompt-plan.js';

const plan: PacPromptPlan = {
  roleLine: 'You are X.',
  sections: [
    { id: 'task-goal', heading: '[Task Goal]', body: 'Goal.' },
    { id: 'memory', heading: '[Your memory]', body: 'a\n---\nb' },
  ],
  guidelinesHeading: '[Collaboration Guidelines]',
  guidelines: [
    { block: 'general', text: 'One.' },
    { block: 'privacy', text: 'Two.' },
  ],
  kickoff: 'Go.',
  continuation: null,
};

describe('renderPacPromptPlan', () => {
  it('renders role line, sections and bullets separated by blank lines', () => {
    expect(renderPacPromptPlan(plan)).toBe(
      'You are X.\n\n[Task Goal]\nGoal.\n\n[Your memory]\na\n---\nb\n\n[Collaboration Guidelines]\n- One.\n- Two.',
    );
  });

  it('leaves out an empty guidelines section', () => {
    expect(renderPacPromptPlan({ ...plan, sections: [], guidelines: [] })).toBe('You are X.');
  });
});
