/** Agreement between two raters on the same items. */
export type Agreement = {
  /** Items both raters labelled. */
  n: number;
  /** Share of items with the same label (null for n = 0). */
  percent: number | null;
  /** Cohen's kappa: (pₒ − pₑ) / (1 − pₑ); null for n = 0 or when chance agreement is total (pₑ = 1). */
  kappa: number | null;
};

/**
 * Percent agreement and Cohen's kappa (1960) of two label sequences over the same items, any
 * number of categories: pₒ is the observed agreement and pₑ the agreement expected by chance from
 * each rater's label frequencies.
 */
export function cohenKappa(pairs: ReadonlyArray<{ a: string; b: string }>): Agreement {
  const n = pairs.length;
  if (n === 0) return { n, percent: null, kappa: null };
  const countsA = new Map<string, number>();
  const countsB = new Map<string, number>();
  let same = 0;
  for (const { a, b } of pairs) {
    if (a === b) same += 1;
    countsA.set(a, (countsA.get(a) ?? 0) + 1);
    countsB.set(b, (countsB.get(b) ?? 0) + 1);
  }
  const observed = same / n;
  let chance = 0;
  for (const [label, count] of countsA) chance += (count / n) * ((countsB.get(label) ?? 0) / n);
  return { n, percent: observed, kappa: chance >= 1 ? null : (observed - chance) / (1 - chance) };
}
