import { PlanValidationError } from '../spec/errors.js';
import type { SampleSpec } from '../suites/suite.js';

/** One shard of a run: `index` of `count`, both 1-based as written on the command line (`2/4`). */
export type ShardSpec = { index: number; count: number };

/**
 * Parses `--shard i/n` (`1 ≤ i ≤ n`). Bad input is a `PlanValidationError` that shows the
 * expected form.
 */
export function parseShard(text: string): ShardSpec {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (
    !match ||
    !Number.isSafeInteger(index) ||
    !Number.isSafeInteger(count) ||
    count < 1 ||
    index < 1 ||
    index > count
  ) {
    throw new PlanValidationError(
      `invalid shard '${text}': write it as i/n with 1 ≤ i ≤ n, e.g. --shard 1/4 … --shard 4/4`,
    );
  }
  return { index, count };
}

/**
 * Keeps the samples of shard `index` of `count`: those whose ordinal in the id-sorted list
 * satisfies `ordinal % count == index - 1`. Sorting by id (code-unit order, not locale) makes
 * the split independent of expansion order; the kept samples stay in their given order.
 */
export function selectShard({
  samples,
  index,
  count,
}: {
  samples: SampleSpec[];
  index: number;
  count: number;
}): SampleSpec[] {
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(index) || index < 1 || index > count) {
    throw new PlanValidationError(`invalid shard ${index}/${count}: need 1 ≤ index ≤ count`);
  }
  const sortedIds = samples.map((sample) => sample.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const keep = new Set(sortedIds.filter((_, ordinal) => ordinal % count === index - 1));
  return samples.filter((sample) => keep.has(sample.id));
}
