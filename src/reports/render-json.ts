import type { Report } from './build-report.js';

/** The report model as pretty JSON (stable key order as built). */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
