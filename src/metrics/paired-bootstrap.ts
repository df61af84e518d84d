import { seededRandom } from '../spec/seeded-random.js';
import { groupBy } from './group-by.js';
import { percentile } from './percentile.js';
import type { Interval } from './wilson-interval.js';

/** One unit scored in both runs (1/0 for a binary outcome, or any value), and its cluster (scenario). */
export type PairedUnit = { a: number; b: number; cluster?: string };

/** The difference `mean(b) − mean(a)` with its percentile bootstrap interval. */
export type PairedBootstrapResult = {
  difference: number;
  ci95: Interval;
  resamples: number;
  /** How many clusters were resampled (units, when no unit names a cluster). */
  clusters: number;
};

/**
 * Paired bootstrap of a difference of means: resamples clusters (each unit its own cluster when
 * none is named) with replacement, keeps each unit's two values together, and takes the 2.5th and
 * 97.5th percentiles of `mean(b) − mean(a)` over the resamples. Resampling whole scenarios keeps the
 * correlation between epochs or variants of one scenario, which a per-sample resample would ignore.
 * Seeded, so a report prints the same interval every time. Null for no units.
 */
export function pairedBootstrap({
  units,
  resamples = 2000,
  seed = 13,
  random = seededRandom(seed).next,
}: {
  units: readonly PairedUnit[];
  resamples?: number;
  seed?: number;
  /** A source of floats in [0, 1); defaults to a seeded one. */
  random?: () => number;
}): PairedBootstrapResult | null {
  if (units.length === 0) return null;
  const clusters = [
    ...groupBy({
      items: units.map((unit, index) => ({ unit, index })),
      key: ({ unit, index }) => unit.cluster ?? `#${index}`,
    }).values(),
  ].map((members) => {
    let a = 0;
    let b = 0;
    for (const { unit } of members) {
      a += unit.a;
      b += unit.b;
    }
    return { a, b, count: members.length };
  });
  const difference = (picks: Iterable<{ a: number; b: number; count: number }>): number => {
    let a = 0;
    let b = 0;
    let count = 0;
    for (const pick of picks) {
      a += pick.a;
      b += pick.b;
      count += pick.count;
    }
    return (b - a) / count;
  };
  const statistics: number[] = [];
  for (let r = 0; r < resamples; r += 1) {
    const picks = [];
    for (let i = 0; i < clusters.length; i += 1) {
      const cluster = clusters[Math.floor(random() * clusters.length)];
      if (cluster !== undefined) picks.push(cluster);
    }
    statistics.push(difference(picks));
  }
  statistics.sort((x, y) => x - y);
  const observed = difference(clusters);
  return {
    difference: observed,
    ci95: {
      lower: percentile({ sorted: statistics, p: 0.025 }) ?? observed,
      upper: percentile({ sorted: statistics, p: 0.975 }) ?? observed,
    },
    resamples,
    clusters: clusters.length,
  };
}
