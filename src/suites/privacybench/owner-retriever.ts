import { parseModelSpec } from '../../models/parse-model-spec.js';
import { createChunkIndex } from '../../retrieval/chunk-index.js';
import type { Embedder } from '../../retrieval/embedder.js';
import { createFts5Retriever } from '../../retrieval/fts5-retriever.js';
import { resolveEmbedder } from '../../retrieval/resolve-embedder.js';
import { createVectorRetriever } from '../../retrieval/vector-retriever.js';
import type { Retriever } from '../../spec/chunk.js';
import { buildKnowledgeBase, type Chunking } from './knowledge-base.js';
import type { PrivacyBenchWorld } from './privacybench-world.js';

/** How a conversation's knowledge base is searched. */
export type RetrievalSetup = {
  retriever: 'bm25' | 'vector';
  /** Embedder spec for `vector` (e.g. `hashing:384`), resolved with `resolveEmbedder`. */
  embedder?: string;
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
 * or, with `retriever: 'vector'`, with sqlite-vec over the embedder's vectors. Built once per
 * world for each owner, date filter, chunking and retriever, and shared by every conversation of
 * the run that needs it (a failed build is forgotten, so the next sample tries again).
 */
export function ownerRetriever({
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
  const key = JSON.stringify(['retriever', ownerId, setup.asOf ?? null, chunking, setup.retriever, setup.embedder]);
  const cached = world.memo.get(key) as Promise<OwnerRetriever> | undefined;
  if (cached !== undefined) return cached;
  const built = buildOwnerRetriever({ world, ownerId, setup, ...(signal === undefined ? {} : { signal }) });
  world.memo.set(key, built);
  built.catch(() => world.memo.delete(key));
  return built;
}

async function buildOwnerRetriever({
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
  const chunks = buildKnowledgeBase({
    community: world.community,
    documents: world.documents,
    userId: ownerId,
    chunking: setup.chunking,
    ...(setup.asOf === undefined ? {} : { asOf: setup.asOf }),
  });
  const index = createChunkIndex({ chunks });
  if (setup.retriever === 'bm25') {
    return { retriever: createFts5Retriever({ index }), kind: 'bm25', chunkCount: chunks.length };
  }
  const embedder = await worldEmbedder({ world, spec: setup.embedder });
  const retriever = await createVectorRetriever({ index, embedder, ...(signal === undefined ? {} : { signal }) });
  return { retriever, kind: 'vector', chunkCount: chunks.length, embedderId: embedder.id };
}

/** The embedder a spec names, resolved once per world (no API key: keyless local or self-hosted embedders). */
function worldEmbedder({ world, spec }: { world: PrivacyBenchWorld; spec: string | undefined }): Promise<Embedder> {
  if (spec === undefined) throw new RangeError('vector retrieval needs an embedder spec');
  const key = JSON.stringify(['embedder', spec]);
  const cached = world.memo.get(key) as Promise<Embedder> | undefined;
  if (cached !== undefined) return cached;
  const resolved = Promise.resolve().then(() => resolveEmbedder({ spec: parseModelSpec(spec) }));
  world.memo.set(key, resolved);
  resolved.catch(() => world.memo.delete(key));
  return resolved;
}
