import { describe, expect, it } from 'vitest';
import type { RequirementOutcome } from './task-evaluation.js';
import { taskScores } from './task-scores.js';

const outcome = (index: number, status: RequirementOutcome['status'], turns: number[] = []): RequirementOutcome => ({
  index,
  status,
  turns,
  inArtifact: false,
  judgeCalls: status === 'not-achieved' ? [] : [`j${index}`],
  explanation: status,
});

describe('taskScores', () => {
  it('gives ts_r on the run and a detail score per requirement', () => {
    expect(
      taskScores({
        scorer: 'pac-task@1',
        mode: 'messages',
        outcomes: [outcome(0, 'achieved', [1, 3]), outcome(1, 'not-achieved')],
      }),
    ).toEqual([
      {
        scorer: 'pac-task@1',
        target: { name: 'run' },
        verdict: 'fail',
        value: 0.5,
        label: '1/2',
        explanation: 'messages: 1 of 2 requirements achieved',
      },
      {
        scorer: 'pac-task@1',
        target: { requirement: 0 },
        verdict: 'pass',
        value: 1,
        label: 'turn 3',
        explanation: 'messages: achieved',
        judgeCalls: ['j0'],
      },
      {
        scorer: 'pac-task@1',
        target: { requirement: 1 },
        verdict: 'fail',
        value: 0,
        explanation: 'messages: not-achieved',
      },
    ]);
  });

  it('makes the run an error when any requirement failed to be judged, even if others passed', () => {
    const scores = taskScores({
      scorer: 'pac-task@1',
      mode: 'artifact',
      outcomes: [outcome(0, 'achieved'), outcome(1, 'error')],
    });
    expect(scores[0]).toEqual({
      scorer: 'pac-task@1',
      target: { name: 'run' },
      verdict: 'error',
      value: null,
      explanation: 'artifact: the judgment of requirement 1 failed',
    });
    expect(scores[2]).toMatchObject({ target: { requirement: 1 }, verdict: 'error', value: null, judgeCalls: ['j1'] });
  });
});
