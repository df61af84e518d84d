import type { EmitEvent } from '../spec/chat-model.js';
import { RunInterruptedError } from '../spec/errors.js';
import type { Message } from '../spec/message.js';
import { allSaidFin } from './termination.js';

/** What the orchestrator reads of a turn report (agents' `TurnActivity` has this shape and more). */
export type TurnActivityShape = { modelCalls: number; toolCalls: readonly unknown[]; refusedToolCalls: number };

/**
 * A participant as the orchestrator sees it: the Participant protocol of architecture §4.7
 * (`agents/participant.ts`), restated structurally because orchestration and agents are sibling
 * layers. Any agents `Participant` is one.
 */
export type ConversationParticipant<Activity extends TurnActivityShape> = {
  readonly id: string;
  initialState(context: { participantIds: readonly string[] }): unknown;
  respond(options: {
    inbox: Message[];
    state: unknown;
    turn: number;
    signal?: AbortSignal;
  }): Promise<{ reply: Message; state: unknown; stop?: boolean; activity?: Activity }>;
};

/** One seat of a conversation: who sits there and the name others see in labels. */
export type ConversationSeat<Activity extends TurnActivityShape = TurnActivityShape> = {
  participant: ConversationParticipant<Activity>;
  /** E.g. `Agent A`; used as the `[Agent A] ` prefix when more than two participants talk. */
  displayName: string;
};

/** One delivered message: a participant's turn output. */
export type ConversationEntry<Activity extends TurnActivityShape = TurnActivityShape> = {
  /** Global 1-based turn. */
  turn: number;
  participantId: string;
  text: string;
  /** What the turn did, when the participant reported it. */
  activity: Activity | null;
};

/** How a conversation ended: everyone said [FIN], the turn budget ran out, or a turn failed. */
export type ConversationTermination = 'all-fin' | 'max-turns' | 'error';

/** The failure that ended a conversation, with who and when. */
export type ConversationFailure<Activity extends TurnActivityShape = TurnActivityShape> = {
  /** The underlying error (unwrapped by the `unwrapFailure` option). */
  error: unknown;
  name: string;
  message: string;
  participantId: string;
  turn: number;
  /** What the failed turn did before failing, when the participant reported it. */
  activity: Activity | null;
};

/** What {@link runTurnBasedConversation} returns. */
export type ConversationResult<Activity extends TurnActivityShape = TurnActivityShape> = {
  transcript: ConversationEntry<Activity>[];
  terminationReason: ConversationTermination;
  /** Present iff `terminationReason` is `error`. */
  failure?: ConversationFailure<Activity>;
  /** Each participant's last state, by id. */
  states: Record<string, unknown>;
};

/** Options of {@link runTurnBasedConversation}. */
export type TurnBasedConversationOptions<Activity extends TurnActivityShape = TurnActivityShape> = {
  /** Seat order: seat 0 speaks first, then round-robin. */
  seats: readonly ConversationSeat<Activity>[];
  /** The first user message of seat 0 (the kickoff). */
  firstMessage: string;
  /** With a single seat: the user message of every later turn (required then). */
  continuation?: string | null;
  maxTurns: number;
  emit?: EmitEvent;
  signal?: AbortSignal;
  /** Runs after every turn, also a failed one (e.g. to snapshot the workspace). */
  afterTurn?: (options: { turn: number; participantId: string; failed: boolean }) => void | Promise<void>;
  /**
   * Splits what a failed turn threw into the real error and the activity before the failure
   * (agents' `ParticipantTurnError.unwrap`); default: the error itself, no activity.
   */
  unwrapFailure?: (thrown: unknown) => { cause: unknown; activity: Activity | null };
};

/**
 * The inbox of the seat about to speak: seat 0's first turn gets the kickoff; a lone seat gets
 * the continuation on later turns; otherwise every message sent since the seat's own last turn,
 * as one user message. With two seats that is the partner's last message, unlabelled; with more
 * each message is prefixed `[<display name>] ` so the speaker is known.
 */
function inboxFor<Activity extends TurnActivityShape>({
  seat,
  turn,
  transcript,
  options,
  names,
}: {
  seat: number;
  turn: number;
  transcript: readonly ConversationEntry<Activity>[];
  options: TurnBasedConversationOptions<Activity>;
  names: ReadonlyMap<string, string>;
}): Message[] {
  if (turn === 1) return [{ role: 'user', content: options.firstMessage }];
  const seatCount = options.seats.length;
  if (seatCount === 1) return [{ role: 'user', content: options.continuation ?? '' }];
  const ownId = options.seats[seat]?.participant.id;
  let since = transcript.length;
  while (since > 0 && transcript[since - 1]?.participantId !== ownId) since -= 1;
  const received = transcript.slice(since);
  const content = received
    .map((entry) =>
      seatCount > 2 ? `[${names.get(entry.participantId) ?? entry.participantId}] ${entry.text}` : entry.text,
    )
    .join('\n\n');
  return [{ role: 'user', content }];
}

/**
 * Routes messages between N participants in round-robin turns (architecture §4.7, pacbench.md
 * §4). Each participant keeps its own state (its thread) and only receives what is addressed to
 * it (see {@link inboxFor}). After every turn a `message-deliver` event (speaker, recipients,
 * text) and a `turn-end` event are emitted and `afterTurn` runs. The conversation ends when the
 * last N messages, one per participant, all contain `[FIN]` (`all-fin`), after `maxTurns` turns
 * (`max-turns`), or when a turn throws (`error`): the failure is recorded with its name, the
 * participant and the turn (and the failed turn's activity, through `unwrapFailure`), and the
 * transcript so far is kept. An aborted `signal` is not a
 * conversation outcome: it throws `RunInterruptedError` before the next turn.
 */
export async function runTurnBasedConversation<Activity extends TurnActivityShape>(
  options: TurnBasedConversationOptions<Activity>,
): Promise<ConversationResult<Activity>> {
  const { seats, maxTurns, emit, signal, afterTurn } = options;
  const unwrap = options.unwrapFailure ?? ((thrown: unknown) => ({ cause: thrown, activity: null }));
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
  const transcript: ConversationEntry<Activity>[] = [];

  for (let turn = 1; turn <= maxTurns; turn += 1) {
    if (signal?.aborted === true) throw new RunInterruptedError();
    const seatIndex = (turn - 1) % seats.length;
    const participant = seats[seatIndex]!.participant;
    const inbox = inboxFor({ seat: seatIndex, turn, transcript, options, names });
    let reply: Awaited<ReturnType<ConversationParticipant<Activity>['respond']>>;
    try {
      reply = await participant.respond({
        inbox,
        state: states.get(participant.id),
        turn,
        ...(signal === undefined ? {} : { signal }),
      });
    } catch (thrown) {
      const { cause, activity } = unwrap(thrown);
      await afterTurn?.({ turn, participantId: participant.id, failed: true });
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
    const entry: ConversationEntry<Activity> = {
      turn,
      participantId: participant.id,
      text: reply.reply.content,
      activity,
    };
    transcript.push(entry);
    emit?.({
      type: 'message-deliver',
      participantId: participant.id,
      turn,
      to: participantIds.filter((id) => id !== participant.id),
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
    await afterTurn?.({ turn, participantId: participant.id, failed: false });
    if (allSaidFin({ transcript, participantIds })) {
      return { transcript, terminationReason: 'all-fin', states: Object.fromEntries(states) };
    }
  }
  return { transcript, terminationReason: 'max-turns', states: Object.fromEntries(states) };
}
