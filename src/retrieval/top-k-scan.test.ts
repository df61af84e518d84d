import { describe, expect, it } from 'vitest';
import type { Chunk } from '../spec/chunk.js';
import { makeChunk } from './testing/make-chunk.js';
import { topKScan } from './top-k-scan.js';
import { createVectorMatrixBuilder, type VectorMatrix } from './vector-matrix.js';

/** mulberry32, so the corpus is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** The naive reference: score every row sequentially, filter, sort (score desc, position asc), cut. */
function reference(
  matrix: VectorMatrix,
  query: Float32Array,
  k: number,
  chunks: Chunk[],
  filter?: (c: Chunk) => boolean,
) {
  const scored: Array<{ position: number; score: number }> = [];
  for (let row = 0; row < matrix.positions.length; row++) {
    const position = matrix.positions[row]!;
    if (filter && !filter(chunks[position]!)) continue;
    let score = 0;
    for (let slot = 0; slot < matrix.dimension; slot++) {
      score += matrix.values[row * matrix.dimension + slot]! * query[slot]!;
    }
    scored.push({ position, score });
  }
  scored.sort((left, right) => right.score - left.score || left.position - right.position);
  return scored.slice(0, k).map(({ position }) => position);
}

describe('topKScan', () => {
  // 16-dim vectors with every entry ±0.25 are unit length and their dot products are multiples of
  // 1/16, exact in any summation order: ~1,400 lattice rows share 33 possible scores against a
  // lattice query, so ties are everywhere and must go to the earlier chunk.
  // Half the corpus instead gets random Gaussian-ish unit vectors; some rows are missing (zero
  // vectors), so positions skip.
  const random = seeded(14);
  const dimension = 17; // not a multiple of 4: the unrolled loop's tail is exercised
  const chunkCount = 3000;
  const chunks = Array.from({ length: chunkCount }, (_, position) =>
    makeChunk({ id: `c${position}`, text: `t${position}`, secretIds: random() < 0.3 ? ['s'] : [] }),
  );
  const lattice = () => {
    const vector = new Float32Array(dimension);
    for (let slot = 0; slot < 16; slot++) vector[slot] = random() < 0.5 ? 0.25 : -0.25;
    return vector;
  };
  const gaussian = () => {
    const vector = new Float32Array(dimension).map(() => random() + random() + random() - 1.5);
    const norm = Math.hypot(...vector);
    return vector.map((value) => value / norm);
  };
  const positions: number[] = [];
  const rows: Float32Array[] = [];
  for (let position = 0; position < chunkCount; position++) {
    if (random() < 0.05) continue;
    positions.push(position);
    rows.push(position % 2 === 0 ? lattice() : gaussian());
  }
  const matrixOf = (simd: boolean) => {
    const builder = createVectorMatrixBuilder({ dimension, capacity: chunkCount, simd });
    for (const [index, row] of rows.entries()) builder.add(positions[index]!, row);
    return builder.finish();
  };
  const matrix = matrixOf(true);
  const jsMatrix = matrixOf(false);
  const noSecrets = (chunk: Chunk) => chunk.provenance.secretIds.length === 0;
  const rare = (chunk: Chunk) => Number(chunk.id.slice(1)) % 97 === 0;

  it('returns exactly the naive reference top k (ids, order, ties), with and without filters', () => {
    for (let trial = 0; trial < 40; trial++) {
      const query = trial % 2 === 0 ? lattice() : gaussian();
      for (const k of [1, 5, 37, 4000]) {
        for (const filter of [undefined, noSecrets, rare, () => false]) {
          const expected = reference(matrix, query, k, chunks, filter);
          expect(topKScan({ matrix, query, k, chunks, filter })).toEqual(expected);
          expect(topKScan({ matrix: jsMatrix, query, k, chunks, filter })).toEqual(expected);
        }
      }
    }
  });

  it('asks the filter at most once per chunk, and returns nothing for k = 0 or an empty matrix', () => {
    const asked = new Map<string, number>();
    const counting = (chunk: Chunk) => {
      asked.set(chunk.id, (asked.get(chunk.id) ?? 0) + 1);
      return noSecrets(chunk);
    };
    topKScan({ matrix, query: lattice(), k: 10, chunks, filter: counting });
    expect(Math.max(...asked.values())).toBe(1);
    expect(asked.size).toBeLessThan(positions.length);
    expect(topKScan({ matrix, query: lattice(), k: 0, chunks })).toEqual([]);
    const empty: VectorMatrix = createVectorMatrixBuilder({ dimension, capacity: 0 }).finish();
    expect(topKScan({ matrix: empty, query: lattice(), k: 3, chunks })).toEqual([]);
  });
});
