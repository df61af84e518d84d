import { describe, expect, it } from 'vitest';
import { renderRequirements, requirementDecisions, taskEvaluationSchema } from './task-evaluation.js';

describe('taskEvaluationSchema', () => {
  it('accepts words and digit strings the judges sometimes write, and a missing reasoning', () => {
    expect(
      taskEvaluationSchema.parse({
        evaluations: [
          { index: '1', achieved: 'Yes' },
          { index: 0, achieved: false, reasoning: 'r' },
        ],
      }),
    ).toEqual({
      evaluations: [
        { index: 1, achieved: true, reasoning: '' },
        { index: 0, achieved: false, reasoning: 'r' },
      ],
    });
  });

  it('rejects a negative index or an unreadable achieved', () => {
    expect(taskEvaluationSchema.safeParse({ evaluations: [{ index: -1, achieved: true }] }).success).toBe(false);
    expect(taskEvaluationSchema.safeParse({ evaluations: [{ index: 0, achieved: 'maybe' }] }).success).toBe(false);
    expect(taskEvaluationSchema.safeParse({ evaluation: [] }).success).toBe(false);
  });
});

describe('requirementDecisions', () => {
  it('takes the first entry per index, treats a missing index as not achieved and ignores extras', () => {
    const evaluation = taskEvaluationSchema.parse({
      evaluations: [
        { index: 2, achieved: true },
        { index: 2, achieved: false },
        { index: 0, achieved: true },
        { index: 7, achieved: true },
      ],
    });
    expect(requirementDecisions({ evaluation, count: 4 })).toEqual([true, false, true, false]);
  });
});

describe('renderRequirements', () => {
  it('numbers from 0', () => {
    expect(renderRequirements(['a', 'b'])).toBe('0. a\n1. b');
  });
});
