import type { Report } from './build-report.js';

/** Quotes a CSV field when needed (RFC 4180) and defuses spreadsheet formula prefixes. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One row per run and metric, values on their stored 0–1 scale, with their denominators. */
export function renderCsv(report: Report): string {
  const lines = [['run_id', 'suite', 'metric', 'value', 'n', 'errors', 'not_applicable'].join(',')];
  for (const run of report.runs) {
    for (const [metric, value] of Object.entries(run.metrics)) {
      lines.push(
        [run.runId, run.suite, metric, value.value, value.n, value.errors, value.notApplicable]
          .map((field) => csvField(field))
          .join(','),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
