import type { PacAgentPrivacyOutcome, PacEpisodeOutcome } from '../episode-outcome.js';
import type { PacPrivacyLevel } from '../outcome-scores.js';

let counter = 0;

/** A successful two-agent run; override any field. */
export function outcome(overrides: Partial<PacEpisodeOutcome> = {}): PacEpisodeOutcome {
  counter += 1;
  return {
    sampleId: `s${counter}`,
    scenarioId: 'range/Banks/policy_0',
    epoch: 1,
    policyType: 'range',
    domain: 'Banks',
    variant: 'default',
    seats: [
      { agentId: 'agent_a', model: 'm1' },
      { agentId: 'agent_b', model: 'm2' },
    ],
    status: 'success',
    error: null,
    terminationReason: 'both-fin',
    turns: 2,
    messages: [
      { turn: 1, agentId: 'agent_a', asksQuestion: true },
      { turn: 2, agentId: 'agent_b', asksQuestion: false },
    ],
    task: { verdict: 'pass', ts: 1 },
    privacyEvaluation: 'configured',
    privacy: [privacy('agent_a', 2), privacy('agent_b', 2)],
    grounding: { grounded: 0, evaluated: 0, errors: 0 },
    ...overrides,
  };
}

/** One agent's privacy outcome. */
export function privacy(
  agentId: string,
  level: PacPrivacyLevel | 'error' | 'not-applicable',
  extra: Partial<PacAgentPrivacyOutcome> = {},
): PacAgentPrivacyOutcome {
  return { agentId, level, firstViolationTurn: null, channels: {}, ...extra };
}

/** A run that errored before judging. */
export function errored(overrides: Partial<PacEpisodeOutcome> = {}): PacEpisodeOutcome {
  return outcome({
    status: 'error',
    error: { kind: 'provider', name: 'ProviderError', message: 'HTTP 500', participantId: 'agent_b' },
    terminationReason: 'error',
    task: { verdict: 'error', ts: null },
    privacy: [],
    ...overrides,
  });
}

/** A run with `achieved` of 5 requirements and the given run privacy (A's level; B compliant). */
export function scored({
  achieved,
  level,
  ...overrides
}: { achieved: number; level: PacPrivacyLevel } & Partial<PacEpisodeOutcome>): PacEpisodeOutcome {
  return outcome({
    task: { verdict: achieved === 5 ? 'pass' : 'fail', ts: achieved / 5 },
    privacy: [privacy('agent_a', level), privacy('agent_b', 2)],
    ...overrides,
  });
}
