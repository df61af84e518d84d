import { describe, expect, it } from 'vitest';
import { EmptyReplyError } from '../agents/turn-errors.js';
import { emptyTurnActivity, ParticipantTurnError } from './participant.js';

describe('ParticipantTurnError', () => {
  it('keeps the cause and the partial activity, and unwraps to them', () => {
    const cause = new EmptyReplyError('no text');
    const activity = { ...emptyTurnActivity(), modelCalls: 2 };
    const wrapped = new ParticipantTurnError({ participantId: 'agent_a', cause, activity });
    expect(wrapped.message).toBe('no text');
    expect(wrapped.participantId).toBe('agent_a');
    expect(ParticipantTurnError.unwrap(wrapped)).toEqual({ cause, activity });
  });

  it('unwraps a plain error to itself with no activity', () => {
    const plain = new Error('boom');
    expect(ParticipantTurnError.unwrap(plain)).toEqual({ cause: plain, activity: null });
  });

  it('starts activity empty', () => {
    expect(emptyTurnActivity()).toEqual({ modelCalls: 0, toolCalls: [], refusedToolCalls: 0 });
  });
});
