/** The normal quantile for a two-sided 95% interval (z at 0.975). */
export const Z_95 = 1.959963984540054;

/** A confidence interval's bounds. */
export type Interval = { lower: number; upper: number };

/**
 * The Wilson score interval for a binomial proportion `successes / n` (Wilson 1927): unlike the
 * normal (Wald) interval it stays inside [0, 1] and keeps its coverage near 0 and 1 and for small
 * n. The bounds are exactly 0 when `successes` is 0 and exactly 1 when it is `n`. Undefined (null)
 * for n = 0.
 */
export function wilsonInterval({
  successes,
  n,
  z = Z_95,
}: {
  successes: number;
  n: number;
  /** The normal quantile; 1.96 for 95%. */
  z?: number;
}): Interval | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return {
    lower: successes <= 0 ? 0 : Math.max(0, center - half),
    upper: successes >= n ? 1 : Math.min(1, center + half),
  };
}
