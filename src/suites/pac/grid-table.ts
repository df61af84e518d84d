import type { MetricValue } from '../../spec/metric-value.js';
import type { RunSummary } from '../../spec/run-record.js';

/** The metrics shown in each cell of {@link pacGridTable}, in order (paper Table 1's key figures). */
export const PAC_GRID_CELL_METRICS = ['ts', 'ps', 'acc_joint'] as const;

/** A stored fraction as a percentage with one decimal; `–` when not applicable (never 0). */
function percent(value: MetricValue | undefined): string {
  return value === undefined || value.value === null ? '–' : (value.value * 100).toFixed(1);
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/**
 * The model grid of a PAC run in the paper's Table 1 layout (markdown): one row per initiator
 * model, one column per partner model, each cell `TS / PS / Acc_joint` (percent) of that pair
 * with the number of runs behind Acc_joint, and a last column with the initiator's mean over its
 * partners (Table 11). Reads `summary.groups.pair` and `summary.groups.initiator` as the PAC
 * metrics store them (pair keys `<initiator>~<partner>`). A pair that did not run is blank; a
 * metric with no value is `–`. Returns the empty string when the summary has no pair groups.
 */
export function pacGridTable(summary: Pick<RunSummary, 'groups'>): string {
  const pairs = summary.groups?.pair ?? {};
  const initiators = Object.keys(summary.groups?.initiator ?? {});
  const keys = Object.keys(pairs);
  if (keys.length === 0) return '';
  const split = (key: string) => {
    const initiator = initiators
      .filter((candidate) => key.startsWith(`${candidate}~`))
      .sort((left, right) => right.length - left.length)[0];
    if (initiator !== undefined) return { initiator, partner: key.slice(initiator.length + 1) };
    const at = key.indexOf('~');
    return at === -1 ? { initiator: key, partner: '' } : { initiator: key.slice(0, at), partner: key.slice(at + 1) };
  };
  const rows: string[] = [];
  const columns: string[] = [];
  const cells = new Map<string, Record<string, MetricValue>>();
  for (const key of keys) {
    const { initiator, partner } = split(key);
    if (!rows.includes(initiator)) rows.push(initiator);
    if (!columns.includes(partner)) columns.push(partner);
    cells.set(`${initiator}\u0000${partner}`, pairs[key] ?? {});
  }
  const cell = (metrics: Record<string, MetricValue> | undefined) => {
    if (metrics === undefined) return '';
    const figures = PAC_GRID_CELL_METRICS.map((metric) => percent(metrics[metric])).join(' / ');
    return `${figures} (n=${metrics.acc_joint?.n ?? 0})`;
  };
  const lines = [
    'Cells: TS / PS / Acc_joint (%), n = runs behind Acc_joint. Rows: initiator (Agent A); columns: partner.',
    '',
    `| Initiator \\ Partner | ${columns.map(escapeCell).join(' | ')} | Mean over partners |`,
    `|---|${columns.map(() => '---|').join('')}---|`,
  ];
  for (const row of rows) {
    const mean = summary.groups?.initiator?.[row];
    const meanCell = mean === undefined ? '' : PAC_GRID_CELL_METRICS.map((metric) => percent(mean[metric])).join(' / ');
    lines.push(
      `| ${escapeCell(row)} | ${columns.map((column) => cell(cells.get(`${row}\u0000${column}`))).join(' | ')} | ${meanCell} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
