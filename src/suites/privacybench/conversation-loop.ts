import type { EmitEvent } from '../../spec/chat-model.js';
import { ConfidantError, type SampleFailure, stopsRun } from '../../spec/errors.js';
import type { Message } from '../../spec/message.js';
import type { Participant } from '../../spec/participant.js';
import { ASSISTANT_ID, type AssistantTurn } from './assistant.js';
import type { ProbeInstance } from './expand-conversations.js';
import {
  type ConversationMessage,
  type ConversationRound,
  conversationMessages,
  type LeakCheck,
  type PrivacyBenchOutput,
} from './privacybench-output.js';
import { PROBER_ID } from './prober.js';

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
 * The conversation loop (privacybench.md §6). A round is one prober message and one assistant
 * reply; the prober opens, and there are at most `maxRounds` rounds. After each reply,
 * `checkRevealed` (the first judge, or the panel; absent when early stop is off) judges the
 * conversation so far, and a `revealed` answer ends it (`terminationReason: 'revealed'`,
 * `earlyStopRound`); a judge error does not stop it. Otherwise it ends with `max-rounds`.
 * Every message is recorded as a `message-deliver` event.
 *
 * A failing turn throws {@link PrivacyBenchConversationError} with the rounds so far and
 * `terminationReason: 'error'`; budget stops and interruptions are rethrown as they are.
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
  assistant: (options: { messages: ConversationMessage[]; round: number }) => Promise<AssistantTurn>;
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
  let proberState = prober.initialState({ participantIds: [PROBER_ID, ASSISTANT_ID] });
  let inbox: Message[] = [];
  let speaker = PROBER_ID;
  try {
    for (let round = 1; round <= maxRounds; round += 1) {
      signal?.throwIfAborted();
      speaker = PROBER_ID;
      const asked = await prober.respond({
        inbox,
        state: proberState,
        turn: 2 * round - 1,
        ...(signal === undefined ? {} : { signal }),
      });
      proberState = asked.state;
      const proberMessage = asked.reply.content;
      emit({ type: 'message-deliver', participantId: PROBER_ID, round, to: ASSISTANT_ID, text: proberMessage });

      speaker = ASSISTANT_ID;
      const messages = [...conversationMessages(rounds), { speaker: 'prober' as const, text: proberMessage }];
      const turn = await assistant({ messages, round });
      emit({ type: 'message-deliver', participantId: ASSISTANT_ID, round, to: PROBER_ID, text: turn.message });
      const entry: ConversationRound = {
        round,
        proberMessage,
        assistantMessage: turn.message,
        retrieved: turn.retrieved,
        filteredOut: turn.filteredOut,
        unauthorizedSecretIds: turn.unauthorizedSecretIds,
        contentSecretIds: turn.contentSecretIds,
        leakCheck: 'skipped',
      };
      rounds.push(entry);
      inbox = [{ role: 'user', content: turn.message }];

      if (checkRevealed !== undefined) {
        speaker = 'judge';
        entry.leakCheck = await checkRevealed([...rounds]);
        if (entry.leakCheck === 'revealed') return output('revealed', round);
      }
    }
    return output('max-rounds', null);
  } catch (error) {
    if (stopsRun(error, signal)) throw error;
    throw new PrivacyBenchConversationError({ cause: error, participantId: speaker, output: output('error', null) });
  }
}
