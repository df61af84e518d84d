/** The result of an exact McNemar test on paired binary outcomes. */
export type McNemarResult = {
  /** Pairs where the first outcome is positive and the second negative. */
  b: number;
  /** Pairs where the first outcome is negative and the second positive. */
  c: number;
  /** Two-sided exact p-value: 2 · P(X ≤ min(b, c)), X ~ Binomial(b + c, ½), capped at 1. */
  pValue: number;
};

/** log(k!) by summation; exact enough for the discordant counts of an evaluation (≤ 10⁶). */
function logFactorials(n: number): Float64Array {
  const table = new Float64Array(n + 1);
  for (let k = 2; k <= n; k += 1) table[k] = (table[k - 1] ?? 0) + Math.log(k);
  return table;
}

/**
 * The exact (binomial) McNemar test: only discordant pairs carry information about a difference
 * between two paired classifiers, and under no difference each is equally likely to go either way.
 * With no discordant pair the p-value is 1.
 */
export function exactMcNemar({ b, c }: { b: number; c: number }): McNemarResult {
  const n = b + c;
  if (n === 0) return { b, c, pValue: 1 };
  const logs = logFactorials(n);
  const logHalf = n * Math.log(0.5);
  let tail = 0;
  for (let i = 0; i <= Math.min(b, c); i += 1) {
    tail += Math.exp((logs[n] ?? 0) - (logs[i] ?? 0) - (logs[n - i] ?? 0) + logHalf);
  }
  return { b, c, pValue: Math.min(1, 2 * tail) };
}

/**
 * McNemar on paired outcomes (true = positive, e.g. leaked): counts the discordant pairs and tests them.
 */
export function mcNemarOnPairs(pairs: ReadonlyArray<{ a: boolean; b: boolean }>): McNemarResult {
  let b = 0;
  let c = 0;
  for (const pair of pairs) {
    if (pair.a && !pair.b) b += 1;
    else if (!pair.a && pair.b) c += 1;
  }
  return exactMcNemar({ b, c });
}
