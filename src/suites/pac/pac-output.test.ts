import { describe, expect, it } from 'vitest';
import { pacOutputFactsSchema, pacOutputSchema } from './pac-output.js';

const output = {
  scenarioId: 'range/Banks/policy_0',
  split: 'range',
  policyType: 'range',
  domain: 'Banks',
  variant: 'default',
  seats: [
    { agentId: 'agent_a', role: 'agent-a', modelId: 'mock:a' },
    { agentId: 'agent_b', role: 'agent-b', modelId: 'mock:b' },
  ],
  messages: [
    {
      turn: 1,
      agentId: 'agent_a',
      text: 'Draft written. [FIN]',
      modelCalls: 2,
      refusedToolCalls: 0,
      toolCalls: [
        {
          name: 'filesystem_write_file',
          input: { path: '/workspace/shared/plan.md', content: 'x' },
          resultText: 'Successfully wrote',
          isError: false,
          egress: true,
        },
      ],
    },
  ],
  terminationReason: 'max-turns',
  finalArtifact: { text: 'plan.md\n…', files: [{ path: 'plan.md', bytes: 1, lastWriter: 'agent_a' }] },
  milestones: [],
  extraSimulatorField: true,
};

describe('pacOutputSchema', () => {
  it('accepts a full output and keeps extra fields', () => {
    const parsed = pacOutputSchema.parse(output);
    expect(parsed.messages[0]?.toolCalls[0]?.egress).toBe(true);
    expect(parsed.extraSimulatorField).toBe(true);
  });

  it('rejects a turn number below 1 and an unknown termination reason', () => {
    expect(pacOutputSchema.safeParse({ ...output, terminationReason: 'timeout' }).success).toBe(false);
    const badTurn = { ...output, messages: [{ ...output.messages[0], turn: 0 }] };
    expect(pacOutputSchema.safeParse(badTurn).success).toBe(false);
  });

  it('reads the facts of a partial output', () => {
    expect(pacOutputFactsSchema.parse({ seats: output.seats }).seats?.map((seat) => seat.modelId)).toEqual([
      'mock:a',
      'mock:b',
    ]);
    expect(pacOutputFactsSchema.parse({})).toEqual({});
  });
});
