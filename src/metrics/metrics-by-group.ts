import type { MetricValue } from '../spec/metric-value.js';
import { groupBy } from './group-by.js';

/** Options of `metricsByGroup`. */
export type MetricsByGroupOptions<Item, Metrics extends Record<string, MetricValue>> = {
  items: readonly Item[];
  /**
   * Per breakdown, the group value(s) of an item: one value, or several (an item that used two
   * toolkits counts in both), or none (the item is left out of that breakdown).
   */
  keys: Readonly<Record<string, (item: Item) => string | readonly string[]>>;
  /** The metrics of one group's items (usually the suite's headline metrics). */
  metrics: (members: Item[]) => Metrics;
};

/**
 * A suite's breakdowns (`SuiteMetrics.groups`): for each breakdown in `keys`, the items grouped
 * by their value, and `metrics` computed within each group, as
 * `groups[breakdown][value][metric]`. Breakdowns keep the order of `keys`; values keep first-seen
 * order, and items their input order within a group.
 */
export function metricsByGroup<Item, Metrics extends Record<string, MetricValue>>({
  items,
  keys,
  metrics,
}: MetricsByGroupOptions<Item, Metrics>): Record<string, Record<string, Metrics>> {
  const groups: Record<string, Record<string, Metrics>> = {};
  for (const [breakdown, keyOf] of Object.entries(keys)) {
    const pairs = items.flatMap((item) => {
      const values = keyOf(item);
      return (typeof values === 'string' ? [values] : values).map((value) => ({ value, item }));
    });
    const byValue: Record<string, Metrics> = {};
    for (const [value, members] of groupBy({ items: pairs, key: (pair) => pair.value })) {
      byValue[value] = metrics(members.map((member) => member.item));
    }
    groups[breakdown] = byValue;
  }
  return groups;
}
