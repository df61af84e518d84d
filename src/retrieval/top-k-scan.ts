import type { Chunk, ChunkFilter } from '../spec/chunk.js';

/** Unit-length vectors stored row after row in one Float32Array, each row naming its chunk. */
export type VectorMatrix = {
  readonly dimension: number;
  /** `rows × dimension` numbers; row `r` starts at `r * dimension`. */
  readonly values: Float32Array;
  /** The chunk position (0-based) of each row, strictly increasing. */
  readonly positions: Int32Array;
};

/**
 * The positions of the `k` rows most similar to `query` (a unit vector, so the dot product is
 * the cosine) whose chunk passes `filter`, best first; equal scores go to the earlier position.
 * Exact: every row is scored. The filter is asked only about a row that would enter the current
 * top `k` (a row that cannot beat the k-th best passing row is out whether it passes or not), so
 * it sees each chunk at most once and the result equals filtering first, then ranking. Scores
 * are summed in double precision with four accumulators (the order is fixed per row, so equal
 * vectors always score equally).
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
  const { dimension, values, positions } = matrix;
  const rows = positions.length;
  if (k <= 0 || rows === 0) return [];
  const q = Float64Array.from(query);
  const unrolled = dimension - (dimension % 4);
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
  for (let row = 0, base = 0; row < rows; row++, base += dimension) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let slot = 0;
    for (; slot < unrolled; slot += 4) {
      s0 += values[base + slot]! * q[slot]!;
      s1 += values[base + slot + 1]! * q[slot + 1]!;
      s2 += values[base + slot + 2]! * q[slot + 2]!;
      s3 += values[base + slot + 3]! * q[slot + 3]!;
    }
    for (; slot < dimension; slot++) s0 += values[base + slot]! * q[slot]!;
    const score = s0 + s1 + (s2 + s3);
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
