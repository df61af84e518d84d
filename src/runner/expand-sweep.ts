import { PlanValidationError } from '../spec/errors.js';
import type { SweepCell, SweepFile } from '../spec/sweep-file.js';

/** The separator of labels in a cell id (and its directory name). */
export const CELL_ID_SEPARATOR = '__';

function matches(labels: Record<string, string>, rule: Record<string, string | string[]>): boolean {
  return Object.entries(rule).every(([axis, wanted]) =>
    Array.isArray(wanted) ? wanted.includes(labels[axis] ?? '') : labels[axis] === wanted,
  );
}

/**
 * The cells of a sweep: the product of its axes in file order (the last axis varies fastest),
 * without those an `exclude` rule matches, then the `include` cells not already present. Rules
 * naming an unknown axis or label, include cells that miss an axis, and a sweep with no cell left
 * are user errors.
 */
export function expandSweep(sweep: SweepFile): SweepCell[] {
  const axes = Object.entries(sweep.axes);
  const known = (where: string, rule: Record<string, string | string[]>) => {
    for (const [axis, wanted] of Object.entries(rule)) {
      const values = sweep.axes[axis];
      if (values === undefined) {
        throw new PlanValidationError(
          `${where} names axis '${axis}', which the sweep does not have (axes: ${axes.map(([name]) => name).join(', ')})`,
        );
      }
      for (const label of Array.isArray(wanted) ? wanted : [wanted]) {
        if (!(label in values)) {
          throw new PlanValidationError(
            `${where} names ${axis}=${label}, which axis '${axis}' does not have (values: ${Object.keys(values).join(', ')})`,
          );
        }
      }
    }
  };
  sweep.exclude.forEach((rule, index) => {
    known(`exclude[${index}]`, rule);
  });
  sweep.include.forEach((rule, index) => {
    known(`include[${index}]`, rule);
    const missing = axes.map(([name]) => name).filter((name) => !(name in rule));
    if (missing.length > 0) {
      throw new PlanValidationError(
        `include[${index}] must name a label of every axis; it misses ${missing.join(', ')}`,
      );
    }
  });

  let product: Array<Record<string, string>> = [{}];
  for (const [axis, values] of axes) {
    product = product.flatMap((labels) => Object.keys(values).map((label) => ({ ...labels, [axis]: label })));
  }
  const kept = product.filter((labels) => !sweep.exclude.some((rule) => matches(labels, rule)));
  const cellOf = (labels: Record<string, string>): SweepCell => ({
    id: axes.map(([axis]) => labels[axis]).join(CELL_ID_SEPARATOR),
    labels: Object.fromEntries(axes.map(([axis]) => [axis, labels[axis] ?? ''])),
    fragments: [sweep.settings, ...axes.map(([axis, values]) => values[labels[axis] ?? ''] ?? {})],
  });
  const cells = kept.map(cellOf);
  const ids = new Set(cells.map((cell) => cell.id));
  for (const rule of sweep.include) {
    const cell = cellOf(rule);
    if (!ids.has(cell.id)) {
      cells.push(cell);
      ids.add(cell.id);
    }
  }
  if (cells.length === 0) {
    throw new PlanValidationError('the sweep has no cell left: its exclude rules remove every combination of its axes');
  }
  return cells;
}
