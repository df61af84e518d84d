import type { AccessContext, Chunk, ChunkFilter, Retriever } from '../spec/chunk.js';
import type { Defense } from '../spec/defense.js';
import type { TranscriptEventInput } from '../spec/event.js';

/** A retrieval-filter defense (e.g. access-controlled retrieval). */
export type RetrievalFilterDefense = Extract<Defense, { kind: 'retrieval-filter' }>;

/** A chunk that would have reached the top k without the filter defenses, and why it did not. */
export type RemovedChunk = {
  chunkId: string;
  docId: string;
  secretIds: string[];
  /** The first defense (in the order given) that withheld the chunk. */
  defenseId: string;
  /** That defense's `explain`, or "withheld by <defense id>" when it has none. */
  reason: string;
};

/** The chunks for the prompt and the audit of what the filter defenses kept out of it. */
export type FilteredSearchResult = {
  /** The `k` best chunks that pass `baseFilter` and every defense, best first. */
  chunks: Chunk[];
  /** In rank order: the chunks of the unfiltered top `k` that a defense withheld. */
  removed: RemovedChunk[];
};

/** The retrieval-filter defenses among `defenses`, in the order given. */
export function retrievalFilterDefenses(defenses: readonly Defense[]): RetrievalFilterDefense[] {
  return defenses.filter((defense): defense is RetrievalFilterDefense => defense.kind === 'retrieval-filter');
}

/**
 * Runs one retrieval with the retrieval-filter defenses among `defenses` applied before top-k,
 * for the requester and time in `access`. `baseFilter` is the suite's own rule (e.g. the date
 * filter); chunks it rejects are not reported.
 *
 * `removed` answers "what did the defenses keep out of this prompt": the retriever is asked a
 * second time without the defenses, and every chunk of that top `k` a defense rejects is listed
 * with its reason. Chunks ranked below `k` were never going to reach the prompt and are not
 * listed. Defenses that are not retrieval filters are ignored; with none, one search runs.
 */
export async function searchWithRetrievalFilters({
  retriever,
  query,
  k,
  access,
  defenses,
  baseFilter,
}: {
  retriever: Retriever;
  query: string;
  k: number;
  access: AccessContext;
  defenses: readonly Defense[];
  baseFilter?: ChunkFilter;
}): Promise<FilteredSearchResult> {
  const filters = retrievalFilterDefenses(defenses);
  const unfiltered = { query, k, ...(baseFilter ? { filter: baseFilter } : {}) };
  if (filters.length === 0) return { chunks: await retriever.search(unfiltered), removed: [] };
  const withholding = (chunk: Chunk) => filters.find((defense) => !defense.filter({ chunk, access }));
  const chunks = await retriever.search({
    query,
    k,
    filter: (chunk) => (baseFilter === undefined || baseFilter(chunk)) && withholding(chunk) === undefined,
  });
  const removed: RemovedChunk[] = [];
  for (const chunk of await retriever.search(unfiltered)) {
    const defense = withholding(chunk);
    if (defense === undefined) continue;
    removed.push({
      chunkId: chunk.id,
      docId: chunk.provenance.docId,
      secretIds: [...chunk.provenance.secretIds],
      defenseId: defense.id,
      reason: defense.explain?.({ chunk, access }) ?? `withheld by ${defense.id}`,
    });
  }
  return { chunks, removed };
}

/**
 * The `defense-action` events of one retrieval: one per retrieval-filter defense, with action
 * `filter`, the chunks it withheld (ids, documents, secrets, reasons), how many chunks were
 * returned, and a one-line reason naming each withheld chunk.
 */
export function retrievalFilterEvents({
  result,
  defenses,
  k,
  participantId,
}: {
  result: FilteredSearchResult;
  defenses: readonly Defense[];
  k: number;
  participantId?: string;
}): Array<Extract<TranscriptEventInput, { type: 'defense-action' }>> {
  return retrievalFilterDefenses(defenses).map((defense) => {
    const removed = result.removed.filter((entry) => entry.defenseId === defense.id);
    const reason =
      removed.length === 0
        ? `no chunk of the top ${k} needed withholding`
        : `withheld ${removed.length} of the top ${k} chunks: ${removed
            .map((entry) => `${entry.chunkId} (${entry.reason})`)
            .join('; ')}`;
    return {
      type: 'defense-action',
      ...(participantId === undefined ? {} : { participantId }),
      defense: defense.id,
      action: 'filter',
      reason,
      removed: removed.map(({ chunkId, docId, secretIds, reason: why }) => ({
        chunkId,
        docId,
        secretIds,
        reason: why,
      })),
      returnedChunkIds: result.chunks.map((chunk) => chunk.id),
    };
  });
}
