import { describe, expect, it } from 'vitest';
import { message, pacOutput, sharedArtifact, twoAgentScenario } from './__fixtures__/pac-judge-fixtures.js';
import { judgeTaskByMarkers } from './task-markers-judge.js';

describe('judgeTaskByMarkers', () => {
  it('needs every marker of a requirement together in one message or in the shared folder', () => {
    const output = pacOutput({
      messages: [
        message(1, 'agent_a', 'W1 1800 KG'),
        message(2, 'agent_a', 'W2 1950 kg'),
        message(3, 'agent_b', 'Tuesday then Thursday'),
        message(4, 'agent_b', 'Tuesday and Thursday again'),
      ],
      artifact: sharedArtifact([{ path: 'shared/plan.md', content: '# Delivery   plan', writer: 'agent_a' }]),
    });
    expect(judgeTaskByMarkers({ scenario: twoAgentScenario(), output })).toEqual([
      {
        index: 0,
        status: 'not-achieved',
        turns: [],
        inArtifact: false,
        judgeCalls: [],
        explanation: 'markers not found together: 1800 kg, 1950 kg',
      },
      {
        index: 1,
        status: 'achieved',
        turns: [3, 4],
        inArtifact: false,
        judgeCalls: [],
        explanation: 'all markers in turns 3, 4',
      },
      {
        index: 2,
        status: 'achieved',
        turns: [],
        inArtifact: true,
        judgeCalls: [],
        explanation: 'all markers in the shared folder',
      },
    ]);
  });

  it('is an error for a scenario without markers', () => {
    const scenario = { ...twoAgentScenario(), checks: undefined };
    const outcomes = judgeTaskByMarkers({ scenario, output: pacOutput({ messages: [message(1, 'agent_a', 'x')] }) });
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['error', 'error', 'error']);
    expect(outcomes[0]?.explanation).toBe(
      'the scenario has no requirement markers for this requirement; use taskMode=messages or artifact',
    );
  });
});
