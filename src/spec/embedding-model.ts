/** One provider-neutral embedding request: the texts to embed, in order. */
export type EmbedRequest = {
  texts: string[];
  abortSignal?: AbortSignal;
};

/** What an embedding model returned: one vector per text, in input order, and the tokens it read. */
export type EmbedResult = {
  embeddings: Float32Array[];
  /** Input tokens as reported by the provider; `null` when it reported none (local models). */
  usage: { inputTokens: number | null };
};

/**
 * The embedding port beside `ChatModel`: what the rest of the code knows about an embedding
 * provider. `id` names the model and its settings (vectors stored under one id are never
 * searched with another's queries); `dimension` is the length of every vector. Callers never use
 * an adapter directly: `wrapEmbeddingModel` adds caching, usage accounting, retries and rate
 * limiting with the same middleware as chat models, and a run reaches the result through the
 * embedding role it is bound to (`ModelRoles.embedder()`).
 */
export type EmbeddingModel = {
  readonly specificationVersion: 'confidant-1';
  readonly provider: string;
  readonly modelId: string;
  readonly id: string;
  readonly dimension: number;
  doEmbed(request: EmbedRequest): Promise<EmbedResult>;
};
