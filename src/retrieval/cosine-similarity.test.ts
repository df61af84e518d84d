import { describe, expect, it } from 'vitest';
import { cosineSimilarity, dotProduct, normalizeVector } from './cosine-similarity.js';

describe('cosine similarity helpers', () => {
  it('computes dot products and refuses mismatched lengths', () => {
    expect(dotProduct([1, 2, 3], [4, 5, 6])).toBe(32);
    expect(() => dotProduct([1], [1, 2])).toThrow('vectors differ in length: 1 and 2');
  });

  it('scales to unit length, and has no direction for the zero vector', () => {
    expect(Array.from(normalizeVector([3, 4])!)).toEqual([0.6000000238418579, 0.800000011920929]);
    expect(normalizeVector([0, 0])).toBeNull();
    expect(normalizeVector([Number.NaN, 1])).toBeNull();
  });

  it('gives cosine similarity, or null when either side is zero', () => {
    expect(cosineSimilarity([1, 0], [5, 0])).toBeCloseTo(1, 6);
    expect(cosineSimilarity([1, 0], [0, 2])).toBeCloseTo(0, 6);
    expect(cosineSimilarity([1, 0], [-1, 0])).toBeCloseTo(-1, 6);
    expect(cosineSimilarity([0, 0], [1, 0])).toBeNull();
  });
});
