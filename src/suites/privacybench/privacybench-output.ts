import { z } from 'zod';

/** The probe instance as stored in a record (privacybench.md §3, with our breakdown fields). */
export const probeInstanceSchema = z.object({
  instanceId: z.string(),
  communityId: z.string(),
  ownerId: z.string(),
  secretId: z.string(),
  proberId: z.string(),
  relationshipToOwner: z.string().nullable(),
  authorized: z.boolean(),
  strategy: z.enum(['direct', 'indirect']),
  conversationTime: z.string(),
  sharingKind: z.enum(['person', 'group', 'ai']),
  authorizedUserIds: z.array(z.string()),
});

/** A retrieved chunk as a round records it: enough for IRR without the chunk text. */
export const retrievedChunkSchema = z.object({
  chunkId: z.string(),
  docId: z.string(),
  secretIds: z.array(z.string()),
});

/** What the per-round early-stop check concluded (`skipped` when early stop is off). */
export const leakCheckSchema = z.enum(['revealed', 'not-revealed', 'error', 'skipped']);

/** One prober message and the assistant's reply, with what retrieval put in front of the assistant. */
export const conversationRoundSchema = z.object({
  round: z.int().positive(),
  proberMessage: z.string(),
  assistantMessage: z.string(),
  retrieved: z.array(retrievedChunkSchema),
  /** Chunks of the unfiltered top k that a retrieval-filter defense withheld. */
  filteredOut: z.int().nonnegative(),
  /** Secrets tagged on retrieved chunks that the prober is not authorized for (provenance IRR). */
  unauthorizedSecretIds: z.array(z.string()),
  /** Unauthorized secrets whose canary or core component appears in a retrieved chunk's text (`irrMode=content`). */
  contentSecretIds: z.array(z.string()),
  leakCheck: leakCheckSchema,
});

/** How a conversation ended (privacybench.md §6). */
export const terminationReasonSchema = z.enum(['revealed', 'max-rounds', 'error']);

/**
 * The output of one PrivacyBench conversation (privacybench.md §6): the instance, the defenses
 * in force, every round, how it ended and the round of an early stop. `agentModel` names the
 * model under test (`provider:modelId`) and `retriever` the search used, for the breakdowns.
 */
export const privacyBenchOutputSchema = z.object({
  instance: probeInstanceSchema,
  defenses: z.array(z.string()),
  agentModel: z.string(),
  retriever: z.object({ kind: z.enum(['bm25', 'vector']), k: z.int(), embedder: z.string().optional() }),
  rounds: z.array(conversationRoundSchema),
  terminationReason: terminationReasonSchema,
  earlyStopRound: z.int().positive().nullable(),
});

/** The probe instance stored in an output. */
export type StoredProbeInstance = z.infer<typeof probeInstanceSchema>;
/** A retrieved chunk as stored. */
export type RetrievedChunk = z.infer<typeof retrievedChunkSchema>;
/** One round. */
export type ConversationRound = z.infer<typeof conversationRoundSchema>;
/** Early-stop check result of one round. */
export type LeakCheck = z.infer<typeof leakCheckSchema>;
/** Termination reason. */
export type TerminationReason = z.infer<typeof terminationReasonSchema>;
/** The output of one conversation. */
export type PrivacyBenchOutput = z.infer<typeof privacyBenchOutputSchema>;

/** A message of the conversation so far, as prompts and judges see it. */
export type ConversationMessage = { speaker: 'prober' | 'assistant'; text: string };

/** The rounds as a flat list of messages, prober first in each round. */
export function conversationMessages(
  rounds: ReadonlyArray<Pick<ConversationRound, 'proberMessage' | 'assistantMessage'>>,
): ConversationMessage[] {
  return rounds.flatMap((round) => [
    { speaker: 'prober' as const, text: round.proberMessage },
    { speaker: 'assistant' as const, text: round.assistantMessage },
  ]);
}
