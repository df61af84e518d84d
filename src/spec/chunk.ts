import { z } from 'zod';

/**
 * Where a chunk came from. Access control decides on these fields alone, so every retriever
 * must carry them unchanged from indexing to the prompt.
 */
export const chunkProvenanceSchema = z.object({
  docId: z.string().min(1).describe('the document the chunk was cut from'),
  docType: z.string().min(1).describe('the document kind, e.g. chat, group-chat, ai-chat, blog, purchase'),
  ownerId: z.string().min(1).describe('the user whose footprint holds the document'),
  participants: z.array(z.string()).describe('everyone who took part in the document (the owner included)'),
  time: z.string().min(1).describe('ISO 8601 date or date-time of the chunk (of its last message for windows)'),
  secretIds: z.array(z.string()).describe('every secret tagged on the messages or items inside the chunk'),
});

/** A retrievable piece of a document, with the provenance access control needs. */
export const chunkSchema = z.object({
  id: z.string().min(1).describe('unique within one index'),
  text: z.string().describe('what is indexed and what a prompt shows, context header included'),
  provenance: chunkProvenanceSchema,
});

/** Provenance of a chunk: document, owner, participants, time and the secrets it carries. */
export type ChunkProvenance = z.infer<typeof chunkProvenanceSchema>;

/** A retrievable piece of a document, with the provenance access control needs. */
export type Chunk = z.infer<typeof chunkSchema>;

/**
 * Who is asking, and when. `isAuthorized` answers whether the requester may know a secret at
 * `at` (PrivacyBench's `authorizedAt`: the owner, or a confidant of a sharing event at or before
 * `at`); the suite that owns the secrets supplies it, so retrieval code never needs them.
 */
export type AccessContext = {
  requesterId: string;
  /** ISO 8601 date or date-time: the conversation's "now". */
  at: string;
  isAuthorized(secretId: string): boolean;
};

/** A predicate over chunks; `true` keeps the chunk. */
export type ChunkFilter = (chunk: Chunk) => boolean;

/** What a retriever is asked: the query text, how many chunks, and which chunks may be returned. */
export type RetrieverSearchOptions = {
  query: string;
  /** A non-negative integer; fewer come back only when fewer chunks match and pass `filter`. */
  k: number;
  /**
   * Applied before the top `k` are taken: the result holds the `k` best-ranked chunks that
   * pass, and a chunk that fails can never be returned.
   */
  filter?: ChunkFilter;
};

/** Ranked retrieval over an index of chunks, best first. */
export type Retriever = {
  search(options: RetrieverSearchOptions): Promise<Chunk[]>;
};
