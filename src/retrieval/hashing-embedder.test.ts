import { describe, expect, it } from 'vitest';
import { cosineSimilarity } from './cosine-similarity.js';
import { createHashingEmbedder, HASHING_EMBEDDER_DEFAULT_DIMENSION, hashingTokens } from './hashing-embedder.js';

describe('createHashingEmbedder', () => {
  it('gives the same known vectors on every run (a change here must bump the id)', async () => {
    const embedder = createHashingEmbedder({ dimension: 8 });
    expect(embedder.id).toBe('hashing-v1:8');
    expect(embedder.dimension).toBe(8);
    const [hello, helloWorld] = await embedder.embed(['Hello', 'hello world']);
    expect(Array.from(hello!)).toEqual([0, 0, 0, 0, 1, 0, 0, 0]);
    // "hello" (1) and "world" (1) plus the pair "hello world" (0.5), scaled by 1/1.5.
    expect(Array.from(helloWorld!).map((value) => Math.round(value * 1e6) / 1e6)).toEqual([
      0.666667, 0, 0, 0, 0.666667, 0, 0, 0.333333,
    ]);
  });

  it('defaults to 384 dimensions and unit-length vectors', async () => {
    const embedder = createHashingEmbedder();
    expect(embedder.dimension).toBe(HASHING_EMBEDDER_DEFAULT_DIMENSION);
    const [vector] = await embedder.embed(['The biopsy results came back on Tuesday']);
    expect(vector).toHaveLength(384);
    expect(Math.hypot(...vector!)).toBeCloseTo(1, 6);
  });

  it('is lexical, not semantic: shared words raise similarity, synonyms do not', async () => {
    const [query, sameWords, synonym, other] = await createHashingEmbedder().embed([
      'doctor appointment',
      'my doctor appointment moved',
      'physician visit',
      'pizza on friday',
    ]);
    expect(cosineSimilarity(query!, sameWords!)).toBeGreaterThan(0.5);
    expect(Math.abs(cosineSimilarity(query!, synonym!)!)).toBeLessThan(0.2);
    expect(Math.abs(cosineSimilarity(query!, other!)!)).toBeLessThan(0.2);
  });

  it('gives the zero vector to a text without words, and refuses a bad dimension', async () => {
    const [blank] = await createHashingEmbedder({ dimension: 4 }).embed(['  ?! ']);
    expect(Array.from(blank!)).toEqual([0, 0, 0, 0]);
    expect(() => createHashingEmbedder({ dimension: 0 })).toThrow(RangeError);
    expect(() => createHashingEmbedder({ dimension: 2.5 })).toThrow('positive integer dimension');
  });

  it('tokenises with NFKC, lower case and Unicode letters', () => {
    expect(hashingTokens('Ｃafé—NAÏVE 42x')).toEqual(['café', 'naïve', '42x']);
  });
});
