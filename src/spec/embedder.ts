/**
 * Turns texts into fixed-size vectors for vector retrieval. `embed` returns one vector of
 * exactly `dimension` numbers per text, in input order. `id` names the model and its
 * settings, so vectors stored under one id are never searched with another's queries.
 * Bound to a run as the `embedder` role (`--model embedder=<spec>`, see `ModelRoles.embedder`).
 */
export type Embedder = {
  readonly id: string;
  readonly dimension: number;
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
};
