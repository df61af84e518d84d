import { PlanValidationError } from '../spec/errors.js';
import { indexMetricDefinitions, type MetricDefinition, type MetricScale } from '../spec/metric-definition.js';
import type { MetricValue } from '../spec/metric-value.js';
import type { RunHeader, RunSummary } from '../spec/run-record.js';
import { type CompareRecord, compareRuns, incomparableReason } from './compare-runs.js';

/** One cell of a sweep as the report reads it. */
export type SweepReportCell = {
  id: string;
  labels: Record<string, string>;
  /**
   * `ok`: every sample has a record; `incomplete`: the run stopped or was killed with samples left;
   * `failed`: the run could not run (see `reason`); `missing`: not run yet.
   */
  status: 'ok' | 'incomplete' | 'failed' | 'missing';
  reason?: string;
  header?: RunHeader;
  summary?: RunSummary;
  /** The latest records (or their `compareRecord` form), for the paired tests (absent: no test for this cell). */
  records?: readonly CompareRecord[];
};

/** One value of the table: a cell's metric, or why there is none. */
export type SweepTableEntry = {
  cellId: string | null;
  status: SweepReportCell['status'] | 'excluded';
  value: MetricValue | null;
  /** Why the entry has no value (not run, failed, not a metric of this cell's suite, …). */
  reason?: string;
};

/** A paired comparison of one table cell with its row's baseline column, per score key. */
export type SweepPairedTest = {
  row: string;
  baseline: string;
  column: string;
  /** Set when the two cells cannot be paired (different data or options, missing records). */
  reason?: string;
  scores: Array<{
    key: string;
    pairs: number;
    failRateA: number;
    failRateB: number;
    pValue: number;
    ci95?: [number, number];
    /** How `ci95` was computed (see `PairedScore.ciMethod`). */
    ciMethod?: 'paired-bootstrap' | 'newcombe';
  }>;
};

/** The table a sweep describes: rows and columns are label combinations of the chosen axes. */
export type SweepTable = {
  name: string;
  rowAxes: string[];
  colAxes: string[];
  rows: string[];
  cols: string[];
  metrics: Array<{ id: string; label: string; scale: MetricScale }>;
  /** `entries[row][col][metric]`. */
  entries: SweepTableEntry[][][];
  paired: SweepPairedTest[];
  /** Cells by status, over the whole sweep. */
  counts: Record<SweepReportCell['status'], number>;
};

const keyOf = (axes: readonly string[], labels: Record<string, string>) =>
  axes.map((axis) => labels[axis] ?? '').join(' · ');

/**
 * Lays a sweep's cells out as a paper table. Every axis with more than one label must be a row
 * or a column axis (else a user error says which to add); by default the last axis gives the
 * columns and the others the rows, and either choice alone makes the other axes the other side. Metrics default to every metric the cells report. A missing,
 * failed or incomplete cell shows as such with its reason, never as a number; an incomplete
 * cell's values are shown but marked. When `records` are given, each column is paired with the
 * row's first column (the baseline) per score key: exact McNemar and the paired interval (`PairedScore.ci95`).
 */
export function buildSweepTable({
  name,
  axes,
  cells,
  rows: rowAxes,
  cols: colAxes,
  metrics: metricIds,
  definitions = [],
}: {
  name: string;
  axes: ReadonlyArray<{ name: string; labels: readonly string[] }>;
  cells: readonly SweepReportCell[];
  rows?: readonly string[];
  cols?: readonly string[];
  metrics?: readonly string[];
  definitions?: readonly MetricDefinition[];
}): SweepTable {
  const axisNames = axes.map((axis) => axis.name);
  for (const axis of [...(rowAxes ?? []), ...(colAxes ?? [])]) {
    if (!axisNames.includes(axis)) {
      throw new PlanValidationError(`the sweep has no axis '${axis}' (axes: ${axisNames.join(', ')})`);
    }
  }
  const cols = colAxes
    ? [...colAxes]
    : rowAxes
      ? axisNames.filter((axis) => !rowAxes.includes(axis))
      : axisNames.slice(-1);
  const rowsChosen = rowAxes ? [...rowAxes] : axisNames.filter((axis) => !cols.includes(axis));
  const both = rowsChosen.filter((axis) => cols.includes(axis));
  if (both.length > 0) throw new PlanValidationError(`axis ${both.join(', ')} is both a row and a column axis`);
  const loose = axes.filter(
    (axis) => axis.labels.length > 1 && !rowsChosen.includes(axis.name) && !cols.includes(axis.name),
  );
  if (loose.length > 0) {
    throw new PlanValidationError(
      `axis ${loose.map((axis) => axis.name).join(', ')} has several values but is neither a row nor a column: add it to --rows or --cols`,
    );
  }
  const combos = (chosen: readonly string[]) => {
    const seen: string[] = [];
    for (const cell of cells) {
      const key = keyOf(chosen, cell.labels);
      if (!seen.includes(key)) seen.push(key);
    }
    return seen;
  };
  const rows = combos(rowsChosen);
  const colKeys = combos(cols);
  const display = indexMetricDefinitions(definitions);
  const ids: string[] = metricIds ? [...metricIds] : [];
  if (!metricIds) {
    for (const cell of cells)
      for (const id of Object.keys(cell.summary?.metrics ?? {})) if (!ids.includes(id)) ids.push(id);
  } else {
    const reported = new Set(cells.flatMap((cell) => Object.keys(cell.summary?.metrics ?? {})));
    const unknown = ids.filter((id) => !reported.has(id) && display[id] === undefined);
    if (unknown.length > 0 && reported.size > 0) {
      throw new PlanValidationError(
        `no cell reports metric ${unknown.join(', ')}; the cells report ${[...reported].join(', ')}`,
      );
    }
  }
  const byPosition = new Map(
    cells.map((cell) => [`${keyOf(rowsChosen, cell.labels)}|${keyOf(cols, cell.labels)}`, cell]),
  );
  const entries = rows.map((row) =>
    colKeys.map((col) => {
      const cell = byPosition.get(`${row}|${col}`);
      return ids.map((id): SweepTableEntry => {
        if (cell === undefined)
          return { cellId: null, status: 'excluded', value: null, reason: 'not a cell of the sweep' };
        const base = { cellId: cell.id, status: cell.status };
        if (cell.status === 'missing') return { ...base, value: null, reason: cell.reason ?? 'not run yet' };
        if (cell.status === 'failed') return { ...base, value: null, reason: cell.reason ?? 'the run failed' };
        const value = cell.summary?.metrics[id];
        if (value === undefined)
          return { ...base, value: null, reason: `not a metric of ${cell.header?.suite.id ?? 'this cell'}` };
        return {
          ...base,
          value,
          ...(cell.status === 'incomplete' ? { reason: cell.reason ?? 'some samples have no record yet' } : {}),
        };
      });
    }),
  );
  const paired: SweepPairedTest[] = [];
  for (const row of rows) {
    const baselineKey = colKeys[0];
    const baseline = baselineKey === undefined ? undefined : byPosition.get(`${row}|${baselineKey}`);
    for (const col of colKeys.slice(1)) {
      const other = byPosition.get(`${row}|${col}`);
      if (baseline === undefined || other === undefined || baselineKey === undefined) continue;
      const test: SweepPairedTest = { row, baseline: baselineKey, column: col, scores: [] };
      if (
        !baseline.header ||
        !other.header ||
        !baseline.summary ||
        !other.summary ||
        !baseline.records ||
        !other.records
      ) {
        paired.push({ ...test, reason: 'one of the two cells has no records' });
        continue;
      }
      const reason = incomparableReason(baseline.header, other.header);
      if (reason !== null) {
        paired.push({ ...test, reason });
        continue;
      }
      const comparison = compareRuns({
        a: { header: baseline.header, summary: baseline.summary, records: baseline.records },
        b: { header: other.header, summary: other.summary, records: other.records },
      });
      test.scores = comparison.scores.map((score) => ({
        key: score.key,
        pairs: score.pairs,
        failRateA: score.failRateA,
        failRateB: score.failRateB,
        pValue: score.mcnemar.pValue,
        ...(score.ci95 === null || score.ciMethod === null
          ? {}
          : { ci95: [score.ci95.lower, score.ci95.upper] as [number, number], ciMethod: score.ciMethod }),
      }));
      paired.push(test);
    }
  }
  const counts = { ok: 0, incomplete: 0, failed: 0, missing: 0 };
  for (const cell of cells) counts[cell.status] += 1;
  return {
    name,
    rowAxes: rowsChosen,
    colAxes: cols,
    rows,
    cols: colKeys,
    metrics: ids.map((id) => ({ id, label: display[id]?.label ?? id, scale: display[id]?.scale ?? 'raw' })),
    entries,
    paired,
    counts,
  };
}
