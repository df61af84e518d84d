import { describe, expect, it } from 'vitest';
import { createVectorMatrixBuilder } from './vector-matrix.js';

describe('createVectorMatrixBuilder', () => {
  it('keeps the rows added, in one Float32Array, and scores each against a query', () => {
    const builder = createVectorMatrixBuilder({ dimension: 2, capacity: 4 });
    builder.add(0, [1, 0]);
    builder.add(2, [0, 1]);
    builder.add(3, [0.6, 0.8]);
    const matrix = builder.finish();
    expect(matrix.values).toBeInstanceOf(Float32Array);
    expect([...matrix.values]).toEqual([1, 0, 0, 1, Math.fround(0.6), Math.fround(0.8)]);
    expect([...matrix.positions]).toEqual([0, 2, 3]);
    expect([...matrix.scores(Float32Array.from([1, 0]))]).toEqual([1, 0, Math.fround(0.6)]);
  });

  it('scores a repeated query once: equal numbers give back the same array, another query rescores', () => {
    const builder = createVectorMatrixBuilder({ dimension: 2, capacity: 2, simd: true });
    builder.add(0, [1, 0]);
    builder.add(1, [0, 1]);
    const matrix = builder.finish();
    const query = Float32Array.from([1, 0]);
    const first = matrix.scores(query);
    expect(matrix.scores(Float32Array.from([1, 0]))).toBe(first);
    query[0] = 0;
    query[1] = 1;
    const other = matrix.scores(query);
    expect(other).not.toBe(first);
    expect([...other]).toEqual([0, 1]);
  });

  it('refuses positions out of order, a wrong length, too many rows, and use after finish', () => {
    const builder = createVectorMatrixBuilder({ dimension: 2, capacity: 2 });
    builder.add(1, [1, 0]);
    expect(() => builder.add(1, [1, 0])).toThrow('row positions must increase');
    expect(() => builder.add(2, [1, 0, 0])).toThrow('expected 2');
    builder.add(5, [0, 1]);
    expect(() => builder.add(6, [0, 1])).toThrow('full');
    builder.finish();
    expect(() => builder.add(7, [0, 1])).toThrow('finished');
  });
});
