import { describe, expect, it } from 'vitest';
import { createDotProductKernel, SIMD_MIN_VALUES, scoreRowsInJs } from './dot-product-kernel.js';

describe('createDotProductKernel', () => {
  it('scores large matrices with WebAssembly SIMD on this runtime, small ones with the JavaScript loop', () => {
    expect(createDotProductKernel({ dimension: 4, capacity: SIMD_MIN_VALUES / 4 }).simd).toBe(true);
    expect(createDotProductKernel({ dimension: 4, capacity: SIMD_MIN_VALUES / 4 - 1 }).simd).toBe(false);
    expect(createDotProductKernel({ dimension: 4, capacity: 2, simd: true }).simd).toBe(true);
    expect(createDotProductKernel({ dimension: 4, capacity: SIMD_MIN_VALUES, simd: false }).simd).toBe(false);
  });

  it('gives known dot products, tails included', () => {
    // dimension 5: four slots through the SIMD lanes, one through the scalar tail.
    const kernel = createDotProductKernel({ dimension: 5, capacity: 3, simd: true });
    kernel.values.set([1, 2, 3, 4, 5, 0, 0, 0, 0, 0, -1, 0.5, 0.25, 2, -3]);
    const query = Float32Array.from([1, 1, 2, 0.5, -1]);
    expect([...kernel.score(query, 3)]).toEqual([1 + 2 + 6 + 2 - 5, 0, -1 + 0.5 + 0.5 + 1 + 3]);
    expect([...kernel.score(query, 1)]).toEqual([6]);
    expect(() => kernel.score(query, 4)).toThrow(RangeError);
    expect(() => kernel.score(Float32Array.from([1, 2]), 1)).toThrow(RangeError);
  });

  it('gives bit-identical scores to scoreRowsInJs for any dimension', () => {
    let state = 7;
    const random = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 4294967296 - 0.5;
    };
    for (const dimension of [1, 2, 3, 4, 7, 16, 17, 384]) {
      const rows = 257;
      const simd = createDotProductKernel({ dimension, capacity: rows, simd: true });
      const js = createDotProductKernel({ dimension, capacity: rows, simd: false });
      for (let cell = 0; cell < rows * dimension; cell++) simd.values[cell] = random();
      js.values.set(simd.values);
      const query = Float32Array.from({ length: dimension }, random);
      const expected = new Float64Array(rows);
      scoreRowsInJs({ values: simd.values, dimension, rows, query, out: expected });
      // Object.is also tells -0 from 0: the two kernels round every addition the same way.
      const same = (scores: Float64Array) => [...scores].every((score, row) => Object.is(score, expected[row]));
      expect(same(simd.score(query, rows))).toBe(true);
      expect(same(js.score(query, rows))).toBe(true);
    }
  });
});
