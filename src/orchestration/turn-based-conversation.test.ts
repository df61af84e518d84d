import { describe, expect, it } from 'vitest';
import { TurnLimitError } from '../agents/turn-errors.js';
import { createEventRecorder } from '../runner/create-event-recorder.js';
import { RunInterruptedError } from '../spec/errors.js';
import { emptyTurnActivity, type Participant, ParticipantTurnError } from '../spec/participant.js';
import { type ConversationSeat, runTurnBasedConversation } from './turn-based-conversation.js';

/** A participant that replies from a script and records every inbox it got; its state counts its turns. */
function scripted(id: string, replies: Array<string | Error>) {
  const inboxes: string[][] = [];
  const participant: Participant<number> = {
    id,
    initialState: () => 0,
    async respond({ inbox, state }) {
      inboxes.push(inbox.map((message) => message.content));
      const next = replies[state];
      if (next === undefined) throw new Error(`${id} has no reply ${state + 1}`);
      if (next instanceof Error) throw next;
      return { reply: { role: 'assistant', content: next }, state: state + 1 };
    },
  };
  return { participant, inboxes };
}

const seat = (participant: Participant<number>, displayName: string): ConversationSeat => ({
  participant,
  displayName,
});

describe('runTurnBasedConversation', () => {
  it('routes only the partner’s last message, unlabelled, and ends when both say [FIN] in a row', async () => {
    const a = scripted('agent_a', ['Hi B, I need your slots.', 'Thanks, writing it up. [FIN]']);
    const b = scripted('agent_b', ['Tuesday 06:00.', 'Looks complete [fin]']);
    const { emit, events } = createEventRecorder();
    const after: string[] = [];
    const result = await runTurnBasedConversation({
      seats: [seat(a.participant, 'Agent A'), seat(b.participant, 'Agent B')],
      firstMessage: 'Now, start the collaboration.',
      maxTurns: 20,
      emit,
      afterTurn: ({ turn, participantId, failed }) => {
        after.push(`${turn}:${participantId}:${failed}`);
      },
    });
    expect(a.inboxes).toEqual([['Now, start the collaboration.'], ['Tuesday 06:00.']]);
    expect(b.inboxes).toEqual([['Hi B, I need your slots.'], ['Thanks, writing it up. [FIN]']]);
    expect(result.terminationReason).toBe('all-fin');
    expect(result.transcript.map((entry) => `${entry.turn}:${entry.participantId}`)).toEqual([
      '1:agent_a',
      '2:agent_b',
      '3:agent_a',
      '4:agent_b',
    ]);
    expect(result.states).toEqual({ agent_a: 2, agent_b: 2 });
    expect(after).toEqual(['1:agent_a:false', '2:agent_b:false', '3:agent_a:false', '4:agent_b:false']);
    expect(events.map((event) => event.type)).toEqual(Array(4).fill(['message-deliver', 'turn-end']).flat());
    expect(events[0]).toMatchObject({ participantId: 'agent_a', turn: 1, to: ['agent_b'] });
    expect(events[1]).toMatchObject({ type: 'turn-end', modelCalls: 0, toolCalls: 0, refusedToolCalls: 0 });
  });

  it('a single [FIN] does not end the run; the turn budget does', async () => {
    const a = scripted('agent_a', ['[FIN]', 'more', '[FIN]']);
    const b = scripted('agent_b', ['not yet', '[FIN]']);
    const result = await runTurnBasedConversation({
      seats: [seat(a.participant, 'Agent A'), seat(b.participant, 'Agent B')],
      firstMessage: 'go',
      maxTurns: 4,
    });
    expect(result.terminationReason).toBe('max-turns');
    expect(result.transcript).toHaveLength(4);
  });

  it('with three seats delivers every message since the seat’s last turn, labelled', async () => {
    const a = scripted('agent_a', ['a1', 'a2 [FIN]']);
    const b = scripted('agent_b', ['b1', 'b2 [FIN]']);
    const c = scripted('agent_c', ['c1 [FIN]']);
    const result = await runTurnBasedConversation({
      seats: [seat(a.participant, 'Agent A'), seat(b.participant, 'Agent B'), seat(c.participant, 'Agent C')],
      firstMessage: 'go',
      maxTurns: 30,
    });
    expect(c.inboxes).toEqual([['[Agent A] a1\n\n[Agent B] b1']]);
    expect(a.inboxes[1]).toEqual(['[Agent B] b1\n\n[Agent C] c1 [FIN]']);
    expect(b.inboxes[1]).toEqual(['[Agent C] c1 [FIN]\n\n[Agent A] a2 [FIN]']);
    expect(result.terminationReason).toBe('all-fin');
    expect(result.transcript).toHaveLength(5);
  });

  it('delivers an addressed reply only to its recipients, labelled with them, and records them', async () => {
    const addressed = (id: string, replies: Array<{ text: string; to?: string[] }>) => {
      const inboxes: string[][] = [];
      const participant: Participant<number> = {
        id,
        initialState: () => 0,
        async respond({ inbox, state }) {
          inboxes.push(inbox.map((message) => message.content));
          const next = replies[state];
          if (next === undefined) throw new Error(`${id} has no reply ${state + 1}`);
          return {
            reply: { role: 'assistant', content: next.text },
            state: state + 1,
            ...(next.to === undefined ? {} : { to: next.to }),
          };
        },
      };
      return { participant, inboxes };
    };
    const a = addressed('agent_a', [{ text: 'a1 for C', to: ['agent_c', 'nobody'] }, { text: 'a2 [FIN]' }]);
    const b = addressed('agent_b', [{ text: 'b1 for all', to: ['agent_a', 'agent_c'] }, { text: 'b2 [FIN]' }]);
    const c = addressed('agent_c', [{ text: 'c1 for A [FIN]', to: ['agent_a', 'agent_c'] }]);
    const { emit, events } = createEventRecorder();
    const result = await runTurnBasedConversation({
      seats: [seat(a.participant, 'Ann'), seat(b.participant, 'Bo'), seat(c.participant, 'Cy')],
      firstMessage: 'go',
      maxTurns: 30,
      emptyInbox: '(nothing for you)',
      emit,
    });
    // B never sees a1; every other seat's message names its recipients only when it was not for everyone
    expect(b.inboxes).toEqual([['(nothing for you)'], ['[Ann] a2 [FIN]']]);
    expect(c.inboxes).toEqual([['[Ann to Cy] a1 for C\n\n[Bo] b1 for all']]);
    expect(a.inboxes[1]).toEqual(['[Bo] b1 for all\n\n[Cy to Ann] c1 for A [FIN]']);
    expect(result.transcript.map((entry) => entry.unknownRecipients)).toEqual([
      ['nobody'],
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(result.transcript.map((entry) => entry.to)).toEqual([
      ['agent_c'],
      undefined,
      ['agent_a'],
      undefined,
      undefined,
    ]);
    expect(
      events.filter((event) => event.type === 'message-deliver').map((event) => ('to' in event ? event.to : null)),
    ).toEqual([['agent_c'], ['agent_a', 'agent_c'], ['agent_a'], ['agent_b', 'agent_c'], ['agent_a', 'agent_c']]);
  });

  it('a lone seat gets the continuation on later turns and ends on its own [FIN]', async () => {
    const a = scripted('agent_a', ['draft', 'final [FIN]']);
    const result = await runTurnBasedConversation({
      seats: [seat(a.participant, 'Agent A')],
      firstMessage: 'start',
      continuation: 'continue',
      maxTurns: 10,
    });
    expect(a.inboxes).toEqual([['start'], ['continue']]);
    expect(result.terminationReason).toBe('all-fin');
  });

  it('records a failed turn with its kind, participant and turn, and keeps the partial transcript', async () => {
    const activity = { ...emptyTurnActivity(), modelCalls: 10 };
    const failure = new ParticipantTurnError({
      participantId: 'agent_b',
      cause: new TurnLimitError('agent_b needed more than 10 model calls', { limit: 10 }),
      activity,
    });
    const a = scripted('agent_a', ['hello', 'unused']);
    const b = scripted('agent_b', [failure]);
    const after: string[] = [];
    const result = await runTurnBasedConversation({
      seats: [seat(a.participant, 'Agent A'), seat(b.participant, 'Agent B')],
      firstMessage: 'go',
      maxTurns: 20,
      afterTurn: ({ turn, failed }) => {
        after.push(`${turn}:${failed}`);
      },
    });
    expect(result.terminationReason).toBe('error');
    expect(result.transcript.map((entry) => entry.text)).toEqual(['hello']);
    expect(result.failure).toMatchObject({
      name: 'TurnLimitError',
      message: 'agent_b needed more than 10 model calls',
      participantId: 'agent_b',
      turn: 2,
      activity,
    });
    expect(result.failure?.error).toBeInstanceOf(TurnLimitError);
    expect(after).toEqual(['1:false', '2:true']);
  });

  it('records an unwrapped error too', async () => {
    const a = scripted('agent_a', [new Error('socket hang up')]);
    const b = scripted('agent_b', []);
    const result = await runTurnBasedConversation({
      seats: [seat(a.participant, 'Agent A'), seat(b.participant, 'Agent B')],
      firstMessage: 'go',
      maxTurns: 2,
    });
    expect(result.failure).toMatchObject({ name: 'Error', participantId: 'agent_a', turn: 1, activity: null });
    expect(result.transcript).toEqual([]);
  });

  it('stops with RunInterruptedError when the signal is aborted', async () => {
    const controller = new AbortController();
    const a = scripted('agent_a', ['one', 'two']);
    const b = scripted('agent_b', ['three']);
    const run = runTurnBasedConversation({
      seats: [seat(a.participant, 'Agent A'), seat(b.participant, 'Agent B')],
      firstMessage: 'go',
      maxTurns: 20,
      signal: controller.signal,
      afterTurn: ({ turn }) => {
        if (turn === 2) controller.abort();
      },
    });
    await expect(run).rejects.toBeInstanceOf(RunInterruptedError);
    expect(a.inboxes).toHaveLength(1);
  });

  it('without a kickoff seat 0 opens with an empty inbox; endOnAllFin: false ignores [FIN]', async () => {
    const a = scripted('prober', ['q1 [FIN]', 'q2 [FIN]']);
    const b = scripted('assistant', ['a1 [FIN]', 'a2 [FIN]']);
    const result = await runTurnBasedConversation({
      seats: [seat(a.participant, 'Prober'), seat(b.participant, 'Assistant')],
      maxTurns: 4,
      endOnAllFin: false,
    });
    expect(a.inboxes).toEqual([[], ['a1 [FIN]']]);
    expect(result.terminationReason).toBe('max-turns');
    expect(result.transcript).toHaveLength(4);
  });

  it('ends with the reason an afterTurn hook stops with, and lets the hook read typed states', async () => {
    const a = scripted('agent_a', ['one', 'two', 'three']);
    const b = scripted('agent_b', ['yes', 'STOP', 'never']);
    const seen: string[] = [];
    const result = await runTurnBasedConversation({
      seats: [seat(a.participant, 'Agent A'), seat(b.participant, 'Agent B')],
      firstMessage: 'go',
      maxTurns: 20,
      afterTurn: ({ turn, entry, stateOf }) => {
        seen.push(`${turn}:${entry?.text}:${stateOf(a.participant)}/${stateOf(b.participant)}`);
        return entry?.text === 'STOP' ? { stop: 'stopped-by-hook' as const } : undefined;
      },
    });
    expect(result.terminationReason).toBe('stopped-by-hook');
    expect(seen).toEqual(['1:one:1/0', '2:yes:1/1', '3:two:2/1', '4:STOP:2/2']);
    expect(result.transcript).toHaveLength(4);
  });

  it('rejects a lone seat without a continuation', async () => {
    const a = scripted('agent_a', ['x']);
    await expect(
      runTurnBasedConversation({ seats: [seat(a.participant, 'Agent A')], firstMessage: 'go', maxTurns: 3 }),
    ).rejects.toThrow(/continuation/);
  });
});
