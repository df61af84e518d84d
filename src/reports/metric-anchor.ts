/** The generated metric reference, relative to the repository root. */
export const METRICS_DOC_PATH = 'docs/metrics.md';

/** The anchor `docs/metrics.md` gives a suite's metric (`pac-acc_joint`), so reports and docs link to one place. */
export function metricAnchor({ suite, id }: { suite: string; id: string }): string {
  return `${suite}-${id}`;
}
