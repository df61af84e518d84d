import type { SuiteMetrics } from './suite.js';

/**
 * The metric ids a suite's computed metrics use (top level and breakdown columns) that its
 * `metrics.definitions` do not define, sorted; empty when every reported number has a definition.
 */
export function undefinedMetricIds({
  suite,
  summary,
}: {
  suite: { metrics: { definitions: ReadonlyArray<{ id: string }> } };
  summary: Pick<SuiteMetrics, 'metrics' | 'groups'>;
}): string[] {
  const defined = new Set(suite.metrics.definitions.map((definition) => definition.id));
  const used = new Set(Object.keys(summary.metrics));
  for (const byValue of Object.values(summary.groups ?? {})) {
    for (const columns of Object.values(byValue)) for (const id of Object.keys(columns)) used.add(id);
  }
  return [...used].filter((id) => !defined.has(id)).sort();
}
