import { createDotProductKernel } from './dot-product-kernel.js';

/**
 * Unit-length vectors stored row after row in one Float32Array, each row naming its chunk: the
 * only copy of a retriever's vectors.
 */
export type VectorMatrix = {
  readonly dimension: number;
  /** `rows × dimension` numbers; row `r` starts at `r * dimension`. */
  readonly values: Float32Array;
  /** The chunk position (0-based) of each row, strictly increasing. */
  readonly positions: Int32Array;
  /**
   * The dot product of every row with `query` (length `dimension`), in row order, summed in double
   * precision in a fixed order (`scoreRowsInJs`), so equal rows always score equally. The array
   * may be overwritten by the next call with another query; the same query again returns it as is.
   */
  scores(query: Float32Array): Float64Array;
};

/** Fills a `VectorMatrix` row by row, in increasing chunk position. */
export type VectorMatrixBuilder = {
  /** Appends `vector` (already unit length) as the row of chunk `position`. */
  add(position: number, vector: ArrayLike<number>): void;
  /** The matrix of the rows added so far; the builder cannot be used afterwards. */
  finish(): VectorMatrix;
};

/**
 * A builder for a matrix of at most `capacity` rows of `dimension` numbers, scored by the
 * dot-product kernel (`createDotProductKernel`: SIMD for large matrices by default; `simd: false`
 * forces the JavaScript loop, `true` the SIMD one; the scores are the same). The memory is sized for `capacity` once; rows left unused (chunks
 * without a vector) cost only address space.
 */
export function createVectorMatrixBuilder({
  dimension,
  capacity,
  simd = 'auto',
}: {
  dimension: number;
  capacity: number;
  simd?: boolean | 'auto';
}): VectorMatrixBuilder {
  const kernel = createDotProductKernel({ dimension, capacity, simd });
  const positions = new Int32Array(capacity);
  let rows = 0;
  let finished = false;
  return {
    add(position, vector) {
      if (finished) throw new Error('vector matrix already finished');
      if (rows === capacity) throw new RangeError(`vector matrix is full (${capacity} rows)`);
      if (vector.length !== dimension) {
        throw new RangeError(`vector has ${vector.length} numbers, expected ${dimension}`);
      }
      if (rows > 0 && position <= positions[rows - 1]!) {
        throw new RangeError(`row positions must increase: ${position} after ${positions[rows - 1]}`);
      }
      kernel.values.set(vector, rows * dimension);
      positions[rows++] = position;
    },
    finish() {
      finished = true;
      const count = rows;
      // The scores of the last query are kept: an access-controlled search scans the same query
      // twice (with and without the defenses), and the second scan is then free.
      let lastQuery: Float32Array | undefined;
      let lastScores: Float64Array = new Float64Array(0);
      return {
        dimension,
        values: kernel.values.subarray(0, count * dimension),
        positions: positions.subarray(0, count),
        scores(query) {
          if (lastQuery !== undefined && sameNumbers(lastQuery, query)) return lastScores;
          lastScores = kernel.score(query, count);
          lastQuery = Float32Array.from(query);
          return lastScores;
        },
      };
    },
  };
}

function sameNumbers(left: Float32Array, right: Float32Array): boolean {
  if (left.length !== right.length) return false;
  for (let slot = 0; slot < left.length; slot++) if (left[slot] !== right[slot]) return false;
  return true;
}
