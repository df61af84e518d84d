import type { Message } from './message.js';
import type { ToolKind } from './tool.js';

/**
 * The participant protocol (architecture §4.7): the one contract between whoever speaks in a
 * conversation (agents under test, rule-based reference agents, collaborators, simulated users,
 * probers, assistants) and whoever runs the conversation (`orchestration/`' turn-based
 * conversation, or a suite's own driver). It lives here because both sides are sibling layers.
 */

/** What every participant learns when a conversation starts. */
export type ParticipantContext = {
  /** Every participant of the conversation, in seat order (the first speaks first). */
  participantIds: readonly string[];
};

/** One executed tool call of a turn, as the transcript keeps it. */
export type ToolCallRecord = {
  /** The call id the model gave (or the participant made up). */
  id: string;
  /** The tool name as the model saw it, e.g. `filesystem_write_file`. */
  name: string;
  input: unknown;
  /** The result text the model received. */
  resultText: string;
  /** True when the tool reported a model mistake (bad path, bad arguments, unknown tool). */
  isError: boolean;
  /** The kind of this call (`egress` for a write into a shared space). */
  kind: ToolKind;
  /** True for a successful egress call: content became visible to others. */
  egress: boolean;
  /** Executions it took (1 + retries of failing executions). */
  attempts: number;
};

/** What a participant did during one turn besides its reply. */
export type TurnActivity = {
  /** Model calls made (0 for rule-based participants). */
  modelCalls: number;
  /** Tool calls executed, in order. */
  toolCalls: ToolCallRecord[];
  /** Tool calls refused because the per-turn tool limit was reached. */
  refusedToolCalls: number;
};

/** An empty {@link TurnActivity}. */
export function emptyTurnActivity(): TurnActivity {
  return { modelCalls: 0, toolCalls: [], refusedToolCalls: 0 };
}

/** What one turn of a participant returns. */
export type ParticipantReply<State> = {
  /** The message delivered to the others (an assistant message whose content is the turn output). */
  reply: Message;
  /**
   * The participants this reply is addressed to, by id. Absent means every other participant.
   * An orchestrator that routes by address delivers the reply only into the inboxes (threads)
   * of these participants, so each participant's thread holds only what was addressed to it.
   */
  to?: readonly string[];
  /**
   * Names the reply addressed that match no other participant (a misspelt or invented name).
   * The orchestrator records them with the message so a misaddressed message is visible; they
   * receive nothing.
   */
  unknownRecipients?: readonly string[];
  /** The participant's state after the turn; the orchestrator hands it back next turn. */
  state: State;
  /** The participant asks to leave the conversation (orchestrators may ignore it). */
  stop?: boolean;
  /** What happened during the turn (tool calls, model calls), for the transcript. */
  activity?: TurnActivity;
};

/**
 * Agents, collaborators, simulated users, probers and assistants all implement this protocol.
 * State is explicit: the orchestrator keeps each participant's state and passes it back, so a
 * participant holds no per-conversation mutable state of its own. `id` is the participant's
 * address (what `ParticipantReply.to`, events and records name). `inbox` holds the messages
 * delivered to this participant since its last turn; `turn` is the global 1-based turn.
 *
 * A failed turn throws; a participant that already did something in that turn (tool calls)
 * wraps the cause in a {@link ParticipantTurnError} so the partial activity is kept.
 */
export type Participant<State> = {
  readonly id: string;
  initialState(context: ParticipantContext): State;
  respond(options: {
    inbox: Message[];
    state: State;
    turn: number;
    signal?: AbortSignal;
  }): Promise<ParticipantReply<State>>;
};

/**
 * A turn that failed after doing part of its work. `cause` is the real error (its name is what
 * records show); `activity` is what the turn did before failing. Orchestrators unwrap it.
 */
export class ParticipantTurnError extends Error {
  readonly participantId: string;
  readonly activity: TurnActivity;
  override readonly cause: unknown;

  constructor(options: { participantId: string; cause: unknown; activity: TurnActivity }) {
    const message = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(message, { cause: options.cause });
    this.name = 'ParticipantTurnError';
    this.participantId = options.participantId;
    this.activity = options.activity;
    this.cause = options.cause;
  }

  /** The underlying error and activity of `error`, whether or not it is wrapped. */
  static unwrap(error: unknown): { cause: unknown; activity: TurnActivity | null } {
    if (error instanceof ParticipantTurnError) return { cause: error.cause, activity: error.activity };
    return { cause: error, activity: null };
  }
}
