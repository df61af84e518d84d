import type { Embedder } from './embedder.js';

/** MiniLM's width, so the offline path exercises the same vector sizes as the paper's model. */
export const HASHING_EMBEDDER_DEFAULT_DIMENSION = 384;

/** The words of a text as the hashing embedder sees them: NFKC, lower-case, letters/digits/marks. */
export function hashingTokens(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}\p{M}]+/gu) ?? []
  );
}

/** 32-bit FNV-1a over UTF-16 code units: tiny, stable across platforms and Node versions. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A second, independent-enough bit stream for the sign (the murmur3 finaliser). */
function mix(value: number): number {
  let hash = value;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

function addFeature(vector: Float32Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  const sign = (mix(hash) & 1) === 0 ? 1 : -1;
  const slot = hash % vector.length;
  vector[slot] = vector[slot]! + sign * weight;
}

/**
 * A deterministic, dependency-free embedder for tests, benchmarks and the offline demo. It is
 * **not semantic**: it hashes each word (weight 1) and each pair of adjacent words (weight 0.5)
 * into one of `dimension` signed slots (the "hashing trick") and scales the sum to unit length.
 * Texts that share words get similar vectors; synonyms and paraphrases do not. A text without
 * any word gets the zero vector, which vector retrieval leaves out of rankings. The same text
 * always gives the same vector, on every machine.
 */
export function createHashingEmbedder({
  dimension = HASHING_EMBEDDER_DEFAULT_DIMENSION,
}: {
  dimension?: number;
} = {}): Embedder {
  if (!Number.isInteger(dimension) || dimension < 1) {
    throw new RangeError(`the hashing embedder needs a positive integer dimension, got ${dimension}`);
  }
  const embedOne = (text: string): Float32Array => {
    const vector = new Float32Array(dimension);
    const tokens = hashingTokens(text);
    tokens.forEach((token, index) => {
      addFeature(vector, `w:${token}`, 1);
      if (index > 0) addFeature(vector, `b:${tokens[index - 1]} ${token}`, 0.5);
    });
    let squares = 0;
    for (const value of vector) squares += value * value;
    if (squares > 0) {
      const scale = 1 / Math.sqrt(squares);
      for (let slot = 0; slot < dimension; slot++) vector[slot] = vector[slot]! * scale;
    }
    return vector;
  };
  return {
    id: `hashing-v1:${dimension}`,
    dimension,
    embed: async (texts) => texts.map(embedOne),
  };
}
