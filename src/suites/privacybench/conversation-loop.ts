import {
  type AfterTurn,
  type ConversationResult,
  runTurnBasedConversation,
} from '../../orchestration/turn-based-conversation.js';
import type { EmitEvent } from '../../spec/chat-model.js';
import { ConfidantError, type SampleFailure, stopsRun } from '../../spec/errors.js';
import type { Participant } from '../../spec/participant.js';
import type { AssistantState } from './assistant.js';
import type { ProbeInstance } from './expand-conversations.js';
import type { ConversationRound, LeakCheck, PrivacyBenchOutput } from './privacybench-output.js';

/** The parts of an output that do not come from the loop. */
export type OutputContext = Pick<PrivacyBenchOutput, 'defenses' | 'agentModel' | 'retriever'>;

/**
 * Thrown when a conversation ended in an error (a provider failure after retries, an empty
 * reply), so the runner records the sample as `status: 'error'` and it counts in `errors`, never
 * as safe. It takes the underlying error's name and message, names the failing participant, and
 * carries the partial output (`terminationReason: 'error'`) that the record keeps.
 */
export class PrivacyBenchConversationError extends ConfidantError implements SampleFailure {
  readonly participantId: string;
  readonly partialOutput: PrivacyBenchOutput;

  constructor({ cause, participantId, output }: { cause: unknown; participantId: string; output: PrivacyBenchOutput }) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = cause instanceof Error ? cause.name : 'Error';
    this.participantId = participantId;
    this.partialOutput = output;
  }
}

/**
 * One PrivacyBench conversation (privacybench.md §6) on the shared turn-based conversation: the
 * prober (seat 0, opening with an empty inbox) and the assistant take turns, one prober message
 * and one assistant reply making a round, for at most `maxRounds` rounds; [FIN] ends nothing
 * here. After each reply an after-turn hook records the round (from the assistant's state) and
 * `checkRevealed` (the first judge, or the panel; absent when early stop is off) judges the
 * conversation so far: a `revealed` answer ends it (`terminationReason: 'revealed'`,
 * `earlyStopRound`); a judge error does not stop it. Otherwise it ends with `max-rounds`.
 * Every message is recorded as a `message-deliver` event carrying its round.
 *
 * A failing turn throws {@link PrivacyBenchConversationError} with the rounds so far and
 * `terminationReason: 'error'` (a failing check names the `judge`); budget stops and
 * interruptions are rethrown as they are.
 */
export async function runConversationLoop({
  instance,
  context,
  prober,
  assistant,
  checkRevealed,
  maxRounds,
  emit,
  signal,
}: {
  instance: ProbeInstance;
  context: OutputContext;
  prober: Participant<unknown>;
  assistant: Participant<AssistantState>;
  checkRevealed?: (rounds: ConversationRound[]) => Promise<Exclude<LeakCheck, 'skipped'>>;
  maxRounds: number;
  emit: EmitEvent;
  signal?: AbortSignal;
}): Promise<PrivacyBenchOutput> {
  if (!Number.isInteger(maxRounds) || maxRounds < 1) throw new RangeError(`maxRounds must be ≥ 1, got ${maxRounds}`);
  const rounds: ConversationRound[] = [];
  const output = (terminationReason: PrivacyBenchOutput['terminationReason'], earlyStopRound: number | null) => ({
    instance,
    ...context,
    rounds: [...rounds],
    terminationReason,
    earlyStopRound,
  });
  let proberMessage = '';
  const afterTurn = async ({ participantId, entry, stateOf }: AfterTurn) => {
    if (entry === undefined) return;
    const round = rounds.length + 1;
    if (participantId === prober.id) {
      proberMessage = entry.text;
      emit({ type: 'message-deliver', participantId, round, to: assistant.id, text: entry.text });
      return;
    }
    emit({ type: 'message-deliver', participantId, round, to: prober.id, text: entry.text });
    const turn = stateOf(assistant).turns.at(-1);
    const record: ConversationRound = {
      round,
      proberMessage,
      assistantMessage: entry.text,
      retrieved: turn?.retrieved ?? [],
      filteredOut: turn?.filteredOut ?? 0,
      unauthorizedSecretIds: turn?.unauthorizedSecretIds ?? [],
      contentSecretIds: turn?.contentSecretIds ?? [],
      leakCheck: 'skipped',
    };
    rounds.push(record);
    if (checkRevealed === undefined) return;
    record.leakCheck = await checkRevealed([...rounds]);
    return record.leakCheck === 'revealed' ? { stop: 'revealed' as const } : undefined;
  };
  let result: ConversationResult<'revealed'>;
  try {
    result = await runTurnBasedConversation({
      seats: [
        { participant: prober, displayName: prober.id },
        { participant: assistant, displayName: assistant.id },
      ],
      maxTurns: 2 * maxRounds,
      endOnAllFin: false,
      afterTurn,
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    if (stopsRun(error, signal)) throw error;
    // Turns fail into `result.failure`; what throws here is the early-stop check.
    throw new PrivacyBenchConversationError({ cause: error, participantId: 'judge', output: output('error', null) });
  }
  const { failure } = result;
  if (failure !== undefined) {
    if (stopsRun(failure.error, signal)) throw failure.error;
    const { participantId } = failure;
    throw new PrivacyBenchConversationError({ cause: failure.error, participantId, output: output('error', null) });
  }
  return result.terminationReason === 'revealed' ? output('revealed', rounds.length) : output('max-rounds', null);
}
