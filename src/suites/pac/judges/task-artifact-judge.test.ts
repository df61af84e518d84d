import { describe, expect, it } from 'vitest';
import { recordingEmit, scriptedJudgeModel } from '../../../judges/__fixtures__/scripted-judge-model.js';
import {
  GARBAGE,
  message,
  pacOutput,
  sharedArtifact,
  taskReply,
  twoAgentScenario,
} from './__fixtures__/pac-judge-fixtures.js';
import { judgeTaskByArtifact } from './task-artifact-judge.js';

const scenario = twoAgentScenario();

describe('judgeTaskByArtifact', () => {
  it('judges the flattened shared folder once', async () => {
    const judge = scriptedJudgeModel({ replies: [taskReply([true, false, true])] });
    const { emit, events } = recordingEmit();
    const output = pacOutput({
      messages: [message(1, 'agent_a', 'see the file')],
      artifact: sharedArtifact([{ path: 'shared/plan.md', content: 'Delivery plan: W1 1800 kg', writer: 'agent_a' }]),
    });
    const outcomes = await judgeTaskByArtifact({ scenario, output, context: { models: () => [judge], emit } });
    expect(outcomes.map((outcome) => [outcome.status, outcome.inArtifact, outcome.judgeCalls])).toEqual([
      ['achieved', true, ['ev-1']],
      ['not-achieved', false, ['ev-1']],
      ['achieved', true, ['ev-1']],
    ]);
    expect(String(judge.calls[0]?.messages[0]?.content)).toContain(
      '<<<SHARED_FOLDER\nshared/\n  plan.md\n\n--- shared/plan.md ---\nDelivery plan: W1 1800 kg\nSHARED_FOLDER>>>',
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'judge-call', judge: 'pac-task-artifact@1', target: 'artifact' });
  });

  it('achieves nothing for an empty shared folder, without a call', async () => {
    const judge = scriptedJudgeModel({ replies: [] });
    const { emit } = recordingEmit();
    const outcomes = await judgeTaskByArtifact({
      scenario,
      output: pacOutput({ messages: [message(1, 'agent_a', 'Delivery plan')] }),
      context: { models: () => [judge], emit },
    });
    expect(outcomes.map((outcome) => [outcome.status, outcome.explanation])).toEqual([
      ['not-achieved', 'the shared folder is empty'],
      ['not-achieved', 'the shared folder is empty'],
      ['not-achieved', 'the shared folder is empty'],
    ]);
    expect(judge.calls).toHaveLength(0);
  });

  it('makes every requirement an error when the reply never parses', async () => {
    const judge = scriptedJudgeModel({ replies: GARBAGE });
    const { emit } = recordingEmit();
    const output = pacOutput({
      messages: [],
      artifact: sharedArtifact([{ path: 'shared/a.md', content: 'x', writer: 'agent_b' }]),
    });
    const outcomes = await judgeTaskByArtifact({ scenario, output, context: { models: () => [judge], emit } });
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['error', 'error', 'error']);
    expect(outcomes[0]?.explanation).toMatch(/^the artifact judgment failed: JudgeParseError/);
  });
});
