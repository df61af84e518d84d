import { type Interval, wilsonInterval, Z_95 } from './wilson-interval.js';

/**
 * The four cells of a paired binary table: how many units had the outcome in both measurements,
 * in the first only, in the second only, and in neither.
 */
export type PairedTable = { both: number; firstOnly: number; secondOnly: number; neither: number };

/**
 * Newcombe's hybrid score interval for a difference of paired proportions `p1 − p2` (Newcombe
 * 1998, method 10: Wilson intervals of the two margins, combined with the phi correlation of the
 * table, its positive association reduced by n/2 as in Newcombe's paired method). Unlike a bootstrap it has width when every pair agrees (e.g. no discordant pairs, or all
 * of them one way), which is where a bootstrap collapses to one point and would claim certainty
 * that a handful of pairs cannot give.
 *
 * `n` is the number of independent units the table stands for (default: its total). Clustered
 * pairs (several samples of one scenario) pass the number of clusters: the proportions and phi
 * stay as observed, the margins' Wilson intervals use `n`, the most conservative design effect.
 * Null for an empty table. The bounds stay inside [−1, 1].
 */
export function newcombePairedInterval({
  table,
  n,
  z = Z_95,
}: {
  table: PairedTable;
  n?: number;
  z?: number;
}): Interval | null {
  const { both, firstOnly, secondOnly, neither } = table;
  const total = both + firstOnly + secondOnly + neither;
  if (total <= 0) return null;
  const units = n ?? total;
  if (units <= 0) return null;
  const p1 = (both + firstOnly) / total;
  const p2 = (both + secondOnly) / total;
  const margin1 = wilsonInterval({ successes: p1 * units, n: units, z });
  const margin2 = wilsonInterval({ successes: p2 * units, n: units, z });
  if (margin1 === null || margin2 === null) return null;
  const phi = tablePhi({ table, scale: units / total, units });
  const difference = p1 - p2;
  const below = Math.sqrt(
    Math.max(
      0,
      (p1 - margin1.lower) ** 2 - 2 * phi * (p1 - margin1.lower) * (margin2.upper - p2) + (margin2.upper - p2) ** 2,
    ),
  );
  const above = Math.sqrt(
    Math.max(
      0,
      (margin1.upper - p1) ** 2 - 2 * phi * (margin1.upper - p1) * (p2 - margin2.lower) + (p2 - margin2.lower) ** 2,
    ),
  );
  return { lower: Math.max(-1, difference - below), upper: Math.min(1, difference + above) };
}

/**
 * The phi correlation of the table as Newcombe's paired method uses it: a positive association
 * is reduced by n/2 (and taken as none when it is smaller than that), a negative one kept; zero
 * when a margin is empty. The cells are scaled to `units` first, so a clustered table counts its
 * clusters.
 */
function tablePhi({ table, scale, units }: { table: PairedTable; scale: number; units: number }): number {
  const both = table.both * scale;
  const firstOnly = table.firstOnly * scale;
  const secondOnly = table.secondOnly * scale;
  const neither = table.neither * scale;
  const product = (both + firstOnly) * (secondOnly + neither) * (both + secondOnly) * (firstOnly + neither);
  if (product === 0) return 0;
  const association = both * neither - firstOnly * secondOnly;
  const corrected = association > units / 2 ? association - units / 2 : Math.min(association, 0);
  return corrected / Math.sqrt(product);
}
