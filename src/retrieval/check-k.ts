/** Throws a RangeError unless `k` is a non-negative integer (a programming error, not user input). */
export function checkK(k: number): void {
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`k must be a non-negative integer, got ${k}`);
}
