import { describe, expect, it } from 'vitest';
import { EmptyReplyError } from '../../agents/turn-errors.js';
import { createEventRecorder } from '../../runner/create-event-recorder.js';
import { BudgetExceededError } from '../../spec/errors.js';
import type { Participant } from '../../spec/participant.js';
import type { AssistantState, AssistantTurn } from './assistant.js';
import { type OutputContext, PrivacyBenchConversationError, runConversationLoop } from './conversation-loop.js';
import type { ProbeInstance } from './expand-conversations.js';
import type { ConversationMessage } from './privacybench-output.js';

const instance: ProbeInstance = {
  instanceId: 'tiny/s-debt/cal/direct',
  communityId: 'tiny',
  ownerId: 'ana',
  secretId: 's-debt',
  proberId: 'cal',
  relationshipToOwner: 'colleague',
  authorized: false,
  strategy: 'direct',
  conversationTime: '2024-12-31T23:59:59.999Z',
  sharingKind: 'person',
  authorizedUserIds: ['ben'],
};
const context: OutputContext = {
  defenses: ['vanilla'],
  agentModel: 'mock:scripted',
  retriever: { kind: 'bm25', k: 5 },
};

/** A prober that says `q1`, `q2`, … and remembers what it was told. */
function scriptedProber(fail?: { atTurn: number; error: Error }): Participant<string[]> {
  return {
    id: 'prober',
    initialState: () => [],
    async respond({ inbox, state, turn }) {
      if (fail !== undefined && turn === fail.atTurn) throw fail.error;
      const heard = [...state, ...inbox.map((message) => message.content)];
      return { reply: { role: 'assistant', content: `q${(turn + 1) / 2}` }, state: heard };
    },
  };
}

/** An assistant that answers `a1`, `a2`, … and records the conversation each turn saw. */
function assistant(seen: ConversationMessage[][]): Participant<AssistantState> {
  return {
    id: 'assistant',
    initialState: () => ({ messages: [], turns: [] }),
    async respond({ inbox, state }) {
      const round = state.turns.length + 1;
      const messages = [
        ...state.messages,
        ...inbox.map((message): ConversationMessage => ({ speaker: 'prober', text: message.content })),
      ];
      seen.push(messages);
      const turn: AssistantTurn = {
        message: `a${round}`,
        retrieved: round === 2 ? [{ chunkId: 'chat-1#m2', docId: 'chat-1', secretIds: ['s-debt'] }] : [],
        filteredOut: 0,
        unauthorizedSecretIds: round === 2 ? ['s-debt'] : [],
        contentSecretIds: [],
        stages: [{ role: 'agent', text: `a${round}` }],
      };
      return {
        reply: { role: 'assistant', content: turn.message },
        state: { messages: [...messages, { speaker: 'assistant', text: turn.message }], turns: [...state.turns, turn] },
      };
    },
  };
}

describe('runConversationLoop', () => {
  it('runs maxRounds prober+assistant rounds without early stop, prober first', async () => {
    const { emit, events } = createEventRecorder();
    const seen: ConversationMessage[][] = [];
    const output = await runConversationLoop({
      instance,
      context,
      prober: scriptedProber(),
      assistant: assistant(seen),
      maxRounds: 3,
      emit,
    });
    expect(output.terminationReason).toBe('max-rounds');
    expect(output.earlyStopRound).toBeNull();
    expect(output.rounds.map((round) => `${round.proberMessage}/${round.assistantMessage}/${round.leakCheck}`)).toEqual(
      ['q1/a1/skipped', 'q2/a2/skipped', 'q3/a3/skipped'],
    );
    expect(output.rounds[1]?.unauthorizedSecretIds).toEqual(['s-debt']);
    expect(seen[2]?.map((message) => message.text)).toEqual(['q1', 'a1', 'q2', 'a2', 'q3']);
    const delivered = events.filter((event) => event.type === 'message-deliver');
    expect(delivered.map(({ participantId, to, round, text }) => ({ participantId, to, round, text }))).toEqual(
      [1, 2, 3].flatMap((round) => [
        { participantId: 'prober', to: 'assistant', round, text: `q${round}` },
        { participantId: 'assistant', to: 'prober', round, text: `a${round}` },
      ]),
    );
    expect(events.filter((event) => event.type === 'turn-end')).toEqual([]);
    expect(output).toMatchObject({ instance, ...context });
  });

  it('stops early at the first round the check calls revealed; judge errors do not stop it', async () => {
    const checks = ['error', 'not-revealed', 'revealed'] as const;
    const output = await runConversationLoop({
      instance,
      context,
      prober: scriptedProber(),
      assistant: assistant([]),
      checkRevealed: async (rounds) => checks[rounds.length - 1] ?? 'not-revealed',
      maxRounds: 10,
      emit: createEventRecorder().emit,
    });
    expect(output.terminationReason).toBe('revealed');
    expect(output.earlyStopRound).toBe(3);
    expect(output.rounds.map((round) => round.leakCheck)).toEqual(['error', 'not-revealed', 'revealed']);
  });

  it('turns a failing turn into PrivacyBenchConversationError with the partial output', async () => {
    const failure = new EmptyReplyError('nothing');
    const attempt = runConversationLoop({
      instance,
      context,
      prober: scriptedProber({ atTurn: 3, error: failure }),
      assistant: assistant([]),
      maxRounds: 10,
      emit: createEventRecorder().emit,
    });
    const error = await attempt.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PrivacyBenchConversationError);
    const conversationError = error as PrivacyBenchConversationError;
    expect(conversationError.name).toBe('EmptyReplyError');
    expect(conversationError.participantId).toBe('prober');
    expect(conversationError.cause).toBe(failure);
    expect(conversationError.partialOutput.terminationReason).toBe('error');
    expect(conversationError.partialOutput.rounds.map((round) => round.round)).toEqual([1]);
  });

  it('names the judge when the early-stop check itself throws, keeping the rounds so far', async () => {
    const failure = new Error('judge template broke');
    const error = await runConversationLoop({
      instance,
      context,
      prober: scriptedProber(),
      assistant: assistant([]),
      checkRevealed: async (rounds) => {
        if (rounds.length === 2) throw failure;
        return 'not-revealed';
      },
      maxRounds: 5,
      emit: createEventRecorder().emit,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PrivacyBenchConversationError);
    const conversationError = error as PrivacyBenchConversationError;
    expect(conversationError.participantId).toBe('judge');
    expect(conversationError.cause).toBe(failure);
    expect(conversationError.partialOutput.rounds.map((round) => round.leakCheck)).toEqual(['not-revealed', 'skipped']);
  });

  it('lets a budget stop through untouched', async () => {
    const budget = new BudgetExceededError('over budget');
    await expect(
      runConversationLoop({
        instance,
        context,
        prober: scriptedProber({ atTurn: 1, error: budget }),
        assistant: assistant([]),
        maxRounds: 2,
        emit: createEventRecorder().emit,
      }),
    ).rejects.toBe(budget);
  });
});
