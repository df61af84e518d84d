import type { Chunk, ChunkFilter } from '../spec/chunk.js';
import type { VectorMatrix } from './vector-matrix.js';

/**
 * The positions of the `k` rows most similar to `query` (a unit vector, so the dot product is
 * the cosine) whose chunk passes `filter`, best first; equal scores go to the earlier position.
 * Exact: every row is scored (`matrix.scores`, one pass over the matrix). The filter is asked only about a row that would enter the current
 * top `k` (a row that cannot beat the k-th best passing row is out whether it passes or not), so
 * it sees each chunk at most once and the result equals filtering first, then ranking.
 */
export function topKScan({
  matrix,
  query,
  k,
  chunks,
  filter,
}: {
  matrix: VectorMatrix;
  query: Float32Array;
  k: number;
  chunks: readonly Chunk[];
  filter?: ChunkFilter | undefined;
}): number[] {
  const { positions } = matrix;
  const rows = positions.length;
  if (k <= 0 || rows === 0) return [];
  const scores = matrix.scores(query);
  // A binary heap of the best rows so far with the worst at the root: lower score, or at an
  // equal score the later position, is worse.
  const heapScores = new Float64Array(k);
  const heapRows = new Int32Array(k);
  let size = 0;
  const worse = (a: number, b: number) =>
    heapScores[a]! < heapScores[b]! || (heapScores[a] === heapScores[b] && heapRows[a]! > heapRows[b]!);
  const swap = (a: number, b: number) => {
    const score = heapScores[a]!;
    heapScores[a] = heapScores[b]!;
    heapScores[b] = score;
    const row = heapRows[a]!;
    heapRows[a] = heapRows[b]!;
    heapRows[b] = row;
  };
  let threshold = Number.NEGATIVE_INFINITY;
  for (let row = 0; row < rows; row++) {
    const score = scores[row]!;
    // Rows come in position order, so a later row at the threshold's score ranks below it.
    if (size === k && score <= threshold) continue;
    if (filter && !filter(chunks[positions[row]!]!)) continue;
    if (size < k) {
      let at = size++;
      heapScores[at] = score;
      heapRows[at] = row;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!worse(at, parent)) break;
        swap(at, parent);
        at = parent;
      }
    } else {
      heapScores[0] = score;
      heapRows[0] = row;
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        const right = left + 1;
        let worst = at;
        if (left < size && worse(left, worst)) worst = left;
        if (right < size && worse(right, worst)) worst = right;
        if (worst === at) break;
        swap(at, worst);
        at = worst;
      }
    }
    if (size === k) threshold = heapScores[0]!;
  }
  const found = Array.from({ length: size }, (_, slot) => ({ score: heapScores[slot]!, row: heapRows[slot]! }));
  found.sort((left, right) => right.score - left.score || left.row - right.row);
  return found.map(({ row }) => positions[row]!);
}
