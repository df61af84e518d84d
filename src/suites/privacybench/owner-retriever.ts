import { type ChunkIndex, createChunkIndex } from '../../retrieval/chunk-index.js';
import { createFts5Retriever } from '../../retrieval/fts5-retriever.js';
import { createVectorRetriever } from '../../retrieval/vector-retriever.js';
import type { ModelRoles } from '../../spec/chat-model.js';
import type { Retriever } from '../../spec/chunk.js';
import type { Embedder } from '../../spec/embedder.js';
import { PlanValidationError } from '../../spec/errors.js';
import { buildKnowledgeBase, type Chunking } from './knowledge-base.js';
import type { PrivacyBenchWorld } from './privacybench-world.js';

/** How a conversation's knowledge base is searched. */
export type RetrievalSetup = {
  retriever: 'bm25' | 'vector';
  /** The embedder for `vector`: the run's `embedder` role (see `vectorEmbedder`). */
  embedder?: Embedder;
  chunking: Chunking;
  /** The date filter: index only chunks dated at or before this instant; undefined indexes everything. */
  asOf?: string;
};

/** An owner's searchable knowledge base. */
export type OwnerRetriever = {
  retriever: Retriever;
  kind: 'bm25' | 'vector';
  /** Chunks in the index. */
  chunkCount: number;
  /** The embedder id for vector retrieval (reports must say which retriever produced IRR). */
  embedderId?: string;
};

/**
 * The retriever over `ownerId`'s knowledge base (privacybench.md §4.1–4.2): their footprint cut
 * into chunks with provenance, indexed in an in-memory SQLite database, searched with BM25 (FTS5)
 * or, with `retriever: 'vector'`, by an exact scan of the embedder's vectors (`createVectorRetriever`,
 * one Float32Array per index and embedder, shared by every retriever over it). The index (and its
 * chunk vectors) is built once per world for each owner, date filter, chunking and retriever, and
 * shared by every conversation of the run that needs it (a failed build is forgotten, so the next
 * sample tries again). A vector retriever is the caller's own over that shared index: its query
 * embeddings go through the caller's embedder, so they are recorded with the sample that made them.
 */
export async function ownerRetriever({
  world,
  ownerId,
  setup,
  signal,
}: {
  world: PrivacyBenchWorld;
  ownerId: string;
  setup: RetrievalSetup;
  signal?: AbortSignal;
}): Promise<OwnerRetriever> {
  const chunking = setup.chunking.kind === 'message' ? 'message' : `window:${setup.chunking.size}`;
  const key = JSON.stringify([
    'retriever',
    ownerId,
    setup.asOf ?? null,
    chunking,
    setup.retriever,
    setup.embedder?.id ?? null,
  ]);
  let shared = world.memo.get(key) as Promise<SharedIndex> | undefined;
  if (shared === undefined) {
    const built = buildSharedIndex({ world, ownerId, setup, ...(signal === undefined ? {} : { signal }) });
    world.memo.set(key, built);
    built.catch(() => world.memo.delete(key));
    shared = built;
  }
  const { owner, index } = await shared;
  if (owner.kind === 'bm25' || setup.embedder === undefined) return owner;
  // The vectors are stored in the index by now, so this embeds nothing but the queries to come.
  const retriever = await createVectorRetriever({
    index,
    embedder: setup.embedder,
    ...(signal === undefined ? {} : { signal }),
  });
  return { ...owner, retriever };
}

/** An owner's index, built once, and the retriever that built it. */
type SharedIndex = { owner: OwnerRetriever; index: ChunkIndex };

async function buildSharedIndex({
  world,
  ownerId,
  setup,
  signal,
}: {
  world: PrivacyBenchWorld;
  ownerId: string;
  setup: RetrievalSetup;
  signal?: AbortSignal;
}): Promise<SharedIndex> {
  const chunks = buildKnowledgeBase({
    community: world.community,
    documents: world.documents,
    userId: ownerId,
    chunking: setup.chunking,
    ...(setup.asOf === undefined ? {} : { asOf: setup.asOf }),
  });
  const index = createChunkIndex({ chunks });
  if (setup.retriever === 'bm25') {
    return { owner: { retriever: createFts5Retriever({ index }), kind: 'bm25', chunkCount: chunks.length }, index };
  }
  const embedder = setup.embedder;
  if (embedder === undefined) throw new PlanValidationError(MISSING_VECTOR_EMBEDDER);
  const retriever = await createVectorRetriever({ index, embedder, ...(signal === undefined ? {} : { signal }) });
  return { owner: { retriever, kind: 'vector', chunkCount: chunks.length, embedderId: embedder.id }, index };
}

/** What to add when vector retrieval has no embedder. */
export const MISSING_VECTOR_EMBEDDER =
  'retriever=vector needs an embedder: add --model embedder=<spec> (e.g. openai:text-embedding-3-small or transformers:/models/all-MiniLM-L6-v2) or --set embedder=hashing:384 (offline, not semantic)';

/**
 * The embedder for vector retrieval: the run's `embedder` role (`models.embedder()`), so its calls
 * are cached, budgeted, retried and recorded as `embedding-call` events. `--set embedder=<spec>`
 * reaches it too: the run binds the role to that spec (`prepareRun`). Unbound, a
 * `PlanValidationError` saying to add `--model embedder=<spec>` or `--set embedder=hashing:384`.
 */
export function vectorEmbedder({ models }: { models: ModelRoles }): Embedder {
  if (models.embedder === undefined) throw new PlanValidationError(MISSING_VECTOR_EMBEDDER);
  try {
    return models.embedder();
  } catch (error) {
    if (error instanceof PlanValidationError) throw new PlanValidationError(MISSING_VECTOR_EMBEDDER, { cause: error });
    throw error;
  }
}
