import type { Embedder } from '../embedder.js';

/** An embedder that looks vectors up in a table, recording every call. */
export type TableEmbedder = Embedder & { readonly calls: string[][] };

/**
 * An embedder for tests with hand-picked vectors: `table[text]`, or the zero vector for a text
 * not in the table. Every call's texts are recorded in `calls`.
 */
export function createTableEmbedder({
  table,
  dimension,
  id = `table:${dimension}`,
}: {
  table: Record<string, readonly number[]>;
  dimension: number;
  id?: string;
}): TableEmbedder {
  const calls: string[][] = [];
  return {
    id,
    dimension,
    calls,
    embed: async (texts) => {
      calls.push([...texts]);
      return texts.map((text) => Float32Array.from(table[text] ?? new Array<number>(dimension).fill(0)));
    },
  };
}
