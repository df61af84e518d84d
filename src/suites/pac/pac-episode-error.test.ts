import { describe, expect, it } from 'vitest';
import { TurnLimitError } from '../../agents/turn-errors.js';
import { BudgetExceededError, ConfidantError } from '../../spec/errors.js';
import { PacEpisodeError } from './pac-episode-error.js';
import type { PacOutput } from './pac-output.js';

const output: PacOutput = {
  scenarioId: 'starter/range/Artisan_Bakeries/policy_0',
  split: 'starter',
  policyType: 'range',
  domain: 'Artisan_Bakeries',
  variant: 'default',
  seats: [],
  messages: [],
  terminationReason: 'error',
  finalArtifact: { text: '', files: [] },
  milestones: [],
};

function failure(error: Error) {
  return {
    error,
    name: error.name,
    message: error.message,
    participantId: 'agent_b',
    turn: 4,
    activity: null,
    kind: 'turn-limit' as const,
  };
}

describe('PacEpisodeError', () => {
  it('takes the underlying error’s name and message and carries the participant and partial output', () => {
    const cause = new TurnLimitError('agent_b needed more than 10 model calls', { limit: 10 });
    const error = new PacEpisodeError({ failure: failure(cause), output });
    expect(ConfidantError.isInstance(error)).toBe(true);
    expect([error.name, error.message]).toEqual(['TurnLimitError', 'agent_b needed more than 10 model calls']);
    expect(error.participantId).toBe('agent_b');
    expect(error.partialOutput).toBe(output);
    expect(error.cause).toBe(cause);
  });

  it('keeps a budget stop reachable through its cause', () => {
    const error = new PacEpisodeError({ failure: failure(new BudgetExceededError('budget')), output });
    expect(ConfidantError.isInstance(error.cause) && error.cause.name).toBe('BudgetExceededError');
  });
});
