/**
 * Pearson's correlation coefficient of paired samples. Returns null when it is undefined:
 * fewer than two points, or either series has zero variance. Throws a RangeError when the
 * series have different lengths (a caller bug, not a data condition).
 */
export function pearson({ x, y }: { x: readonly number[]; y: readonly number[] }): number | null {
  if (x.length !== y.length) {
    throw new RangeError(`pearson: series lengths differ (${x.length} vs ${y.length})`);
  }
  const n = x.length;
  if (n < 2) return null;
  let sumX = 0;
  let sumY = 0;
  for (let index = 0; index < n; index += 1) {
    sumX += x[index]!;
    sumY += y[index]!;
  }
  const meanX = sumX / n;
  const meanY = sumY / n;
  let covariance = 0;
  let varianceX = 0;
  let varianceY = 0;
  for (let index = 0; index < n; index += 1) {
    const dx = x[index]! - meanX;
    const dy = y[index]! - meanY;
    covariance += dx * dy;
    varianceX += dx * dx;
    varianceY += dy * dy;
  }
  if (varianceX === 0 || varianceY === 0) return null;
  return covariance / Math.sqrt(varianceX * varianceY);
}
