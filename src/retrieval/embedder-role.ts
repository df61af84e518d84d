import type { ModelRoleDefinition } from '../spec/model-role.js';

/** What to add when vector retrieval needs an embedder and none is bound. */
export const MISSING_EMBEDDER_HINT =
  'add --model embedder=<spec> (e.g. openai:text-embedding-3-small, transformers:/models/all-MiniLM-L6-v2, or hashing:384 offline)';

/** The `embedder` role: the embedding model of vector retrieval, one per run (`ModelRoles.embedder()`). */
export const EMBEDDER_ROLE: ModelRoleDefinition = {
  id: 'embedder',
  kind: 'embedding',
  purpose: 'an embedder for vector retrieval',
  bindHint: MISSING_EMBEDDER_HINT,
  offlineSpec: 'hashing:384',
};
