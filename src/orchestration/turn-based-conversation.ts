import type { EmitEvent } from '../spec/chat-model.js';
import { RunInterruptedError } from '../spec/errors.js';
import type { Message } from '../spec/message.js';
import { type Participant, ParticipantTurnError, type TurnActivity } from '../spec/participant.js';
import { allSaidFin } from './termination.js';

/** One seat of a conversation: who sits there and the name others see in labels. */
export type ConversationSeat = {
  /** Any participant of the protocol (`spec/participant.ts`); its state stays opaque here. */
  participant: Participant<unknown>;
  /** E.g. `Agent A`; used as the `[Agent A] ` prefix when more than two participants talk. */
  displayName: string;
};

/** One delivered message: a participant's turn output. */
export type ConversationEntry = {
  /** Global 1-based turn. */
  turn: number;
  participantId: string;
  text: string;
  /** What the turn did, when the participant reported it. */
  activity: TurnActivity | null;
  /** The recipients, when the reply was addressed to some of the others (absent: everyone else). */
  to?: string[];
  /** Names or ids the reply addressed that are no other participant (they received nothing); absent when none. */
  unknownRecipients?: string[];
};

/**
 * How a conversation ended: everyone said [FIN], the turn budget ran out, or a turn failed (an
 * `afterTurn` hook that stops the conversation names its own reason instead).
 */
export type ConversationTermination = 'all-fin' | 'max-turns' | 'error';

/** The failure that ended a conversation, with who and when. */
export type ConversationFailure = {
  /** The underlying error (a `ParticipantTurnError` is unwrapped to its cause). */
  error: unknown;
  name: string;
  message: string;
  participantId: string;
  turn: number;
  /** What the failed turn did before failing, when the participant reported it. */
  activity: TurnActivity | null;
};

/** What {@link runTurnBasedConversation} returns; `Stop` is what an `afterTurn` hook may stop with. */
export type ConversationResult<Stop extends string = never> = {
  transcript: ConversationEntry[];
  terminationReason: ConversationTermination | Stop;
  /** Present iff `terminationReason` is `error`. */
  failure?: ConversationFailure;
  /** Each participant's last state, by id. */
  states: Record<string, unknown>;
};

/** What the `afterTurn` hook of {@link runTurnBasedConversation} learns about the turn that just ended. */
export type AfterTurn = {
  turn: number;
  participantId: string;
  /** True when the turn threw (the conversation then ends with `error`, whatever the hook returns). */
  failed: boolean;
  /** The delivered message of the turn; absent when it failed. */
  entry?: ConversationEntry;
  /** The state the conversation holds for one of its seated participants, typed as that participant's. */
  stateOf<State>(participant: Participant<State>): State;
};

/** Options of {@link runTurnBasedConversation}. */
export type TurnBasedConversationOptions<Stop extends string = never> = {
  /** Seat order: seat 0 speaks first, then round-robin. */
  seats: readonly ConversationSeat[];
  /**
   * The first user message of seat 0 (the kickoff). Absent: seat 0 opens with an empty inbox
   * (a participant that writes its own opening cue, like PrivacyBench's prober).
   */
  firstMessage?: string;
  /** With a single seat: the user message of every later turn (required then). */
  continuation?: string | null;
  maxTurns: number;
  /** End the conversation when everyone said [FIN] (`all-fin`, the default); false: only the budget or a hook ends it. */
  endOnAllFin?: boolean;
  /** Receives the `message-deliver` and `turn-end` events of every turn (none when absent). */
  emit?: EmitEvent;
  signal?: AbortSignal;
  /**
   * Runs after every turn, also a failed one (e.g. to snapshot the workspace, or to judge the
   * conversation so far). Returning `{ stop }` after a successful turn ends the conversation with
   * `stop` as its termination reason (e.g. PrivacyBench's early stop, `revealed`). What it throws
   * propagates: it is not a participant's failure.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook with nothing to say (a snapshot) returns nothing
  afterTurn?: (turn: AfterTurn) => void | { stop: Stop } | Promise<void | { stop: Stop }>;
  /** The user message of a seat to which nothing was addressed since its last turn (default empty). */
  emptyInbox?: string;
};

/** Whether `entry` reaches `participantId`: it is addressed to everyone else, or names it. */
function reaches(entry: ConversationEntry, participantId: string): boolean {
  return entry.participantId !== participantId && (entry.to === undefined || entry.to.includes(participantId));
}

/**
 * The inbox of the seat about to speak: seat 0's first turn gets the kickoff; a lone seat gets
 * the continuation on later turns; otherwise every message sent since the seat's own last turn
 * that reaches it (addressed to everyone, or to it), as one user message. With two seats that
 * is the partner's last message, unlabelled; with more each message is prefixed
 * `[<display name>] ` so the speaker is known, or `[<name> to <names>] ` when it was addressed
 * to some of the others only. When nothing reached the seat, the `emptyInbox` text.
 */
function inboxFor({
  seat,
  turn,
  transcript,
  options,
  names,
}: {
  seat: number;
  turn: number;
  transcript: readonly ConversationEntry[];
  options: Pick<TurnBasedConversationOptions<string>, 'seats' | 'firstMessage' | 'continuation' | 'emptyInbox'>;
  names: ReadonlyMap<string, string>;
}): Message[] {
  if (turn === 1) return options.firstMessage === undefined ? [] : [{ role: 'user', content: options.firstMessage }];
  const seatCount = options.seats.length;
  if (seatCount === 1) return [{ role: 'user', content: options.continuation ?? '' }];
  const ownId = options.seats[seat]?.participant.id;
  let since = transcript.length;
  while (since > 0 && transcript[since - 1]?.participantId !== ownId) since -= 1;
  const received = transcript.slice(since).filter((entry) => ownId === undefined || reaches(entry, ownId));
  if (received.length === 0) return [{ role: 'user', content: options.emptyInbox ?? '' }];
  const name = (id: string) => names.get(id) ?? id;
  const content = received
    .map((entry) => {
      if (seatCount <= 2) return entry.text;
      const to = entry.to === undefined ? '' : ` to ${entry.to.map(name).join(', ')}`;
      return `[${name(entry.participantId)}${to}] ${entry.text}`;
    })
    .join('\n\n');
  return [{ role: 'user', content }];
}

/**
 * The recipients a reply keeps: known ids other than the speaker, in seat order; undefined for
 * everyone else; empty (nobody) when it named no other participant. `unknown`: what it named
 * that is no participant (the reply's own `unknownRecipients`, then unseated ids of `to`).
 */
function recipientsOf({
  reply,
  speaker,
  participantIds,
}: {
  reply: { to?: readonly string[]; unknownRecipients?: readonly string[] };
  speaker: string;
  participantIds: readonly string[];
}): { to: string[] | undefined; unknown: string[] } {
  const unknown = [
    ...new Set([...(reply.unknownRecipients ?? []), ...(reply.to ?? []).filter((id) => !participantIds.includes(id))]),
  ];
  if (reply.to === undefined) return { to: undefined, unknown };
  const to = reply.to;
  const others = participantIds.filter((id) => id !== speaker);
  const kept = others.filter((id) => to.includes(id));
  return { to: kept.length === others.length ? undefined : kept, unknown };
}

/**
 * Routes messages between N participants in round-robin turns (architecture §4.7, pacbench.md
 * §4). Each participant keeps its own state (its thread) and only receives what is addressed to
 * it (see {@link inboxFor}): a reply reaches everyone else unless it names its recipients
 * (`to`), and the transcript entry then records them; names that are no other participant
 * receive nothing and are recorded as `unknownRecipients` (a reply that named only such names
 * reaches nobody: `to` is empty). After every turn a `message-deliver` event (speaker, recipients,
 * text) and a `turn-end` event are emitted and `afterTurn` runs. The conversation ends when the
 * last N messages, one per participant, all contain `[FIN]` (`all-fin`, unless `endOnAllFin` is
 * false), when `afterTurn` returns `{ stop }` (`stop`), after `maxTurns` turns (`max-turns`), or
 * when a turn throws (`error`): the failure is recorded with its name, the participant and the
 * turn (a `ParticipantTurnError` is unwrapped to its cause and the failed turn's activity), and
 * the transcript so far is kept. An aborted `signal` is not a conversation outcome: it throws
 * `RunInterruptedError` before the next turn.
 */
export async function runTurnBasedConversation<Stop extends string = never>(
  options: TurnBasedConversationOptions<Stop>,
): Promise<ConversationResult<Stop>> {
  const { seats, maxTurns, emit, signal, afterTurn } = options;
  if (seats.length === 0) throw new RangeError('a conversation needs at least one seat');
  if (!Number.isInteger(maxTurns) || maxTurns < 1)
    throw new RangeError(`maxTurns must be a positive integer, got ${maxTurns}`);
  if (seats.length === 1 && (options.continuation ?? null) === null && maxTurns > 1) {
    throw new RangeError('a single-seat conversation needs a continuation message for its later turns');
  }
  const participantIds = seats.map((seat) => seat.participant.id);
  const names = new Map(seats.map((seat) => [seat.participant.id, seat.displayName]));
  const states = new Map<string, unknown>(
    seats.map((seat) => [seat.participant.id, seat.participant.initialState({ participantIds })]),
  );
  const stateOf = <State>(participant: Participant<State>): State => {
    if (!states.has(participant.id)) throw new RangeError(`'${participant.id}' has no seat in this conversation`);
    // The conversation stores what this participant's own respond() returned.
    return states.get(participant.id) as State;
  };
  const transcript: ConversationEntry[] = [];

  for (let turn = 1; turn <= maxTurns; turn += 1) {
    if (signal?.aborted === true) throw new RunInterruptedError();
    const seatIndex = (turn - 1) % seats.length;
    const participant = seats[seatIndex]!.participant;
    const inbox = inboxFor({ seat: seatIndex, turn, transcript, options, names });
    let reply: Awaited<ReturnType<Participant<unknown>['respond']>>;
    try {
      reply = await participant.respond({
        inbox,
        state: states.get(participant.id),
        turn,
        ...(signal === undefined ? {} : { signal }),
      });
    } catch (thrown) {
      const { cause, activity } = ParticipantTurnError.unwrap(thrown);
      await afterTurn?.({ turn, participantId: participant.id, failed: true, stateOf });
      return {
        transcript,
        terminationReason: 'error',
        failure: {
          error: cause,
          name: cause instanceof Error ? cause.name : 'Error',
          message: cause instanceof Error ? cause.message : String(cause),
          participantId: participant.id,
          turn,
          activity,
        },
        states: Object.fromEntries(states),
      };
    }
    states.set(participant.id, reply.state);
    const activity = reply.activity ?? null;
    const { to, unknown } = recipientsOf({ reply, speaker: participant.id, participantIds });
    const entry: ConversationEntry = {
      turn,
      participantId: participant.id,
      text: reply.reply.content,
      activity,
      ...(to === undefined ? {} : { to }),
      ...(unknown.length === 0 ? {} : { unknownRecipients: unknown }),
    };
    transcript.push(entry);
    emit?.({
      type: 'message-deliver',
      participantId: participant.id,
      turn,
      to: to ?? participantIds.filter((id) => id !== participant.id),
      ...(unknown.length === 0 ? {} : { unknownRecipients: unknown }),
      text: entry.text,
    });
    emit?.({
      type: 'turn-end',
      participantId: participant.id,
      turn,
      modelCalls: activity?.modelCalls ?? 0,
      toolCalls: activity?.toolCalls.length ?? 0,
      refusedToolCalls: activity?.refusedToolCalls ?? 0,
    });
    const after = await afterTurn?.({ turn, participantId: participant.id, failed: false, entry, stateOf });
    if (after !== undefined) {
      return { transcript, terminationReason: after.stop, states: Object.fromEntries(states) };
    }
    if ((options.endOnAllFin ?? true) && allSaidFin({ transcript, participantIds })) {
      return { transcript, terminationReason: 'all-fin', states: Object.fromEntries(states) };
    }
  }
  return { transcript, terminationReason: 'max-turns', states: Object.fromEntries(states) };
}
