import type { Chunk, Retriever, RetrieverSearchOptions } from '../spec/chunk.js';
import { checkK } from './check-k.js';
import type { ChunkIndex } from './chunk-index.js';
import { type Fts5QueryOptions, toFts5MatchQuery } from './fts5-query.js';

/** A BM25 retriever over a chunk index. */
export type Fts5Retriever = Retriever & { readonly kind: 'bm25' };

/**
 * BM25 retrieval with SQLite FTS5 (`bm25()`, lower is better; ties broken by row id so results
 * are deterministic). The query text is sanitised by `toFts5MatchQuery`, so any user text is
 * safe to pass; a text without words matches nothing.
 *
 * **Filter before top-k:** without a filter the database returns exactly `k` rows. With one,
 * the ranked matches are walked lazily, best first, and each chunk is tested until `k` pass,
 * so the result is the `k` best chunks among those the filter keeps (fewer only when fewer
 * matching chunks pass), and a chunk the filter rejects is never returned. The filter runs in
 * JavaScript because access rules (`AccessContext.isAuthorized`) are code, not columns.
 */
export function createFts5Retriever({
  index,
  query: queryOptions = {},
}: {
  index: ChunkIndex;
  /** How user text becomes a MATCH expression (stop words, term cap). */
  query?: Fts5QueryOptions;
}): Fts5Retriever {
  const ranked = index.database.prepare('select rowid from chunk_fts where chunk_fts match ? order by rank, rowid');
  const topK = index.database.prepare(
    'select rowid from chunk_fts where chunk_fts match ? order by rank, rowid limit ?',
  );
  ranked.raw(true);
  topK.raw(true);
  const toChunk = (rowid: unknown): Chunk => {
    const chunk = index.chunkAt(Number(rowid));
    if (chunk === undefined) throw new Error(`chunk index is inconsistent: no chunk at row ${String(rowid)}`);
    return chunk;
  };

  return {
    kind: 'bm25',
    async search({ query, k, filter }: RetrieverSearchOptions): Promise<Chunk[]> {
      checkK(k);
      if (k === 0) return [];
      const match = toFts5MatchQuery(query, queryOptions);
      if (match === null) return [];
      if (!filter) return (topK.all(match, k) as unknown[][]).map((row) => toChunk(row[0]));
      const kept: Chunk[] = [];
      for (const row of ranked.iterate(match) as IterableIterator<unknown[]>) {
        const chunk = toChunk(row[0]);
        if (!filter(chunk)) continue;
        kept.push(chunk);
        // Leaving the loop ends the statement, so the rest of the ranking is never read.
        if (kept.length === k) break;
      }
      return kept;
    },
  };
}
