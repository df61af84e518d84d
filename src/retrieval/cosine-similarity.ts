/**
 * The dot product of two equal-length vectors (the cosine similarity when both have unit
 * length). Throws a RangeError on a length mismatch rather than reading past the shorter one.
 */
export function dotProduct(left: ArrayLike<number>, right: ArrayLike<number>): number {
  if (left.length !== right.length) {
    throw new RangeError(`vectors differ in length: ${left.length} and ${right.length}`);
  }
  let sum = 0;
  for (let index = 0; index < left.length; index++) sum += left[index]! * right[index]!;
  return sum;
}

/**
 * A unit-length copy of `vector`, or `null` for the zero vector, which has no direction and
 * therefore no cosine similarity to anything (callers leave it out of rankings).
 */
export function normalizeVector(vector: ArrayLike<number>): Float32Array | null {
  let squares = 0;
  for (let index = 0; index < vector.length; index++) squares += vector[index]! * vector[index]!;
  if (!(squares > 0) || !Number.isFinite(squares)) return null;
  const scale = 1 / Math.sqrt(squares);
  const unit = new Float32Array(vector.length);
  for (let index = 0; index < vector.length; index++) unit[index] = vector[index]! * scale;
  return unit;
}

/** Cosine similarity in [-1, 1]; `null` when either vector is zero. */
export function cosineSimilarity(left: ArrayLike<number>, right: ArrayLike<number>): number | null {
  const a = normalizeVector(left);
  const b = normalizeVector(right);
  if (a === null || b === null) return null;
  return dotProduct(a, b);
}
