import { describe, expect, it } from 'vitest';
import { recordingEmit, scriptedJudgeModel } from '../../../judges/__fixtures__/scripted-judge-model.js';
import {
  alignmentReply,
  GARBAGE,
  MEMORY_A,
  message,
  pacOutput,
  promptOf,
  sharedArtifact,
  twoAgentScenario,
} from './__fixtures__/pac-judge-fixtures.js';
import { groundingScores, linkedContext } from './context-alignment-judge.js';
import type { RequirementOutcome } from './task-evaluation.js';

const scenario = twoAgentScenario();
const outcome = (index: number, status: RequirementOutcome['status'], turns: number[] = []): RequirementOutcome => ({
  index,
  status,
  turns,
  inArtifact: false,
  judgeCalls: [],
});

describe('linkedContext', () => {
  it('collects the memories serving a requirement and their owners’ covering policies', () => {
    expect(linkedContext({ scenario, index: 0 })).toEqual({
      records: `Agent A, record 0:\n${MEMORY_A}`,
      policies: '- Agent A: Customer names must not be disclosed.',
    });
    expect(linkedContext({ scenario, index: 2 })).toEqual({ records: '', policies: '(none)' });
  });
});

describe('groundingScores', () => {
  const output = pacOutput({
    messages: [message(1, 'agent_a', 'W1 1800 kg'), message(3, 'agent_a', 'W1 1700 kg'), message(2, 'agent_b', 'Tue')],
    artifact: sharedArtifact([{ path: 'shared/plan.md', content: 'W1 1800 kg', writer: 'agent_a' }]),
  });

  it('judges achieved, memory-backed requirements against the last achieving message', async () => {
    const judge = scriptedJudgeModel({ replies: [alignmentReply(false)] });
    const { emit } = recordingEmit();
    const scores = await groundingScores({
      scorer: 'pac-grounding@1',
      scenario,
      output,
      outcomes: [outcome(0, 'achieved', [1, 3]), outcome(1, 'not-achieved'), outcome(2, 'achieved', [3])],
      source: 'messages',
      context: { models: () => [judge], emit },
    });
    expect(scores).toEqual([
      {
        scorer: 'pac-grounding@1',
        target: { requirement: 0 },
        verdict: 'fail',
        value: 0,
        explanation: 'wrong figure',
        judgeCalls: ['ev-1'],
      },
      {
        scorer: 'pac-grounding@1',
        target: { requirement: 1 },
        verdict: 'not-applicable',
        value: null,
        explanation: 'not achieved',
      },
      {
        scorer: 'pac-grounding@1',
        target: { requirement: 2 },
        verdict: 'not-applicable',
        value: null,
        explanation: 'no private record backs this requirement',
      },
    ]);
    const prompt = promptOf(judge.calls[0]);
    expect(prompt).toContain('The output is the message of turn 3, sent by one agent to its partners.');
    expect(prompt).toContain('<<<OUTPUT\nW1 1700 kg\nOUTPUT>>>');
  });

  it('judges the artifact in artifact mode, and a reply that never parses is an error', async () => {
    const judge = scriptedJudgeModel({ replies: [alignmentReply(true), ...GARBAGE] });
    const { emit } = recordingEmit();
    const scores = await groundingScores({
      scorer: 'pac-grounding@1',
      scenario,
      output,
      outcomes: [outcome(0, 'achieved'), outcome(1, 'achieved'), outcome(2, 'error')],
      source: 'artifact',
      context: { models: () => [judge], emit },
    });
    expect(scores.map((score) => [score.target?.requirement, score.verdict, score.value])).toEqual([
      [0, 'pass', 1],
      [1, 'error', null],
      [2, 'not-applicable', null],
    ]);
    expect(scores[1]?.explanation).toMatch(/^context-alignment judgment failed: JudgeParseError/);
    expect(scores[2]?.explanation).toBe('the task judgment failed');
    expect(promptOf(judge.calls[0])).toContain('--- shared/plan.md ---\nW1 1800 kg');
  });

  it('under judgeParse=upstream a reply that never parses is asked 10 times, then hallucinated', async () => {
    const judge = scriptedJudgeModel({ replies: Array(10).fill('consistent') });
    const { emit, events } = recordingEmit();
    const scores = await groundingScores({
      scorer: 'pac-grounding@1',
      scenario,
      output,
      outcomes: [outcome(0, 'achieved', [1])],
      source: 'messages',
      context: { models: () => [judge], emit, judgeParse: 'upstream' },
    });
    expect(judge.calls).toHaveLength(10);
    expect(scores.map((score) => [score.verdict, score.value])).toEqual([['fail', 0]]);
    expect(scores[0]?.explanation).toMatch(/^hallucinated \(upstream fallback\)/);
    expect(events.filter((event) => event.type === 'parse-retry')).toHaveLength(9);
  });
});
