/**
 * The `p`-quantile of ascending `sorted` numbers with linear interpolation between order statistics
 * (Hyndman–Fan type 7, the default of R and NumPy). Null for an empty list.
 */
export function percentile({ sorted, p }: { sorted: readonly number[]; p: number }): number | null {
  if (sorted.length === 0) return null;
  const h = (sorted.length - 1) * Math.min(1, Math.max(0, p));
  const low = Math.floor(h);
  const lowValue = sorted[low] ?? 0;
  const highValue = sorted[Math.min(sorted.length - 1, low + 1)] ?? lowValue;
  return lowValue + (h - low) * (highValue - lowValue);
}
