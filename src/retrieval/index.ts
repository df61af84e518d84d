/**
 * retrieval/: chunk indexes in SQLite, BM25 (FTS5) and vector (sqlite-vec) retrievers that apply
 * filters before top-k, embedders, and the search that retrieval-filter defenses plug into.
 */
export {
  type AiSdkEmbedderOptions,
  createAiSdkEmbedder,
  createAiSdkEmbeddingModel,
  DIMENSION_PROBE_TEXT,
  type EmbeddingModelV3,
} from './ai-sdk-embedder.js';
export { type BruteForceRetriever, createBruteForceRetriever } from './brute-force-retriever.js';
export { CHUNK_INDEX_FORMAT, type ChunkIndex, createChunkIndex, openChunkIndex } from './chunk-index.js';
export { cosineSimilarity, dotProduct, normalizeVector } from './cosine-similarity.js';
export { checkEmbeddings, type Embedder, embedderOf, embeddingModelOf } from './embedder.js';
export { EMBEDDER_ROLE, MISSING_EMBEDDER_HINT } from './embedder-role.js';
export {
  type FilteredSearchResult,
  type RemovedChunk,
  type RetrievalFilterDefense,
  retrievalFilterDefenses,
  retrievalFilterEvents,
  searchWithRetrievalFilters,
} from './filtered-search.js';
export { ENGLISH_STOP_WORDS, type Fts5QueryOptions, toFts5MatchQuery } from './fts5-query.js';
export { createFts5Retriever, type Fts5Retriever } from './fts5-retriever.js';
export { createHashingEmbedder, HASHING_EMBEDDER_DEFAULT_DIMENSION, hashingTokens } from './hashing-embedder.js';
export {
  EMBEDDER_SPEC_EXAMPLES,
  type ResolveEmbedderOptions,
  resolveEmbedder,
  resolveEmbeddingModel,
} from './resolve-embedder.js';
export {
  createTransformersEmbedder,
  TRANSFORMERS_INSTALL,
  TRANSFORMERS_MODEL_FILES,
  TRANSFORMERS_PACKAGE,
  type TransformersEmbedderOptions,
} from './transformers-embedder.js';
export { createVectorRetriever, SQLITE_VEC_MAX_K, type VectorRetriever } from './vector-retriever.js';
