import { causeLabel, causeSource } from '../spec/error-cause.js';
import type { Report } from './build-report.js';

/** Quotes a CSV field when needed (RFC 4180) and defuses spreadsheet formula prefixes. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * One row per run and metric, values on their stored 0–1 scale, with their denominators, for a
 * value that is n/a its reason (for a value that is a convention, the convention), and the 95% interval with how it was computed (`wilson`,
 * `scenario-bootstrap` or `cluster-wilson`) when the summary has one. Then, per run, one `error_cause` row per cause (value = count,
 * reason = the cause and an example sample) and one `judge_health` row per judge and model
 * (value = failed calls, n = calls, errors = failed calls, not_applicable = n/a verdicts, reason =
 * the judge, model and most common error).
 */
export function renderCsv(report: Report): string {
  const lines = [
    [
      'run_id',
      'suite',
      'metric',
      'value',
      'n',
      'errors',
      'not_applicable',
      'reason',
      'ci95_low',
      'ci95_high',
      'ci_method',
    ].join(','),
  ];
  const row = (fields: Array<string | number | null>) => lines.push(fields.map((field) => csvField(field)).join(','));
  for (const run of report.runs) {
    for (const [metric, value] of Object.entries(run.metrics)) {
      row([
        run.runId,
        run.suite,
        metric,
        value.value,
        value.n,
        value.errors,
        value.notApplicable,
        value.reason ?? value.convention ?? null,
        value.ci95?.[0] ?? null,
        value.ci95?.[1] ?? null,
        value.ciMethod ?? null,
      ]);
    }
    for (const cause of run.errorCauses) {
      const source = causeSource(cause);
      const where = source === undefined ? '' : `${source}: `;
      row([
        run.runId,
        run.suite,
        'error_cause',
        cause.count,
        null,
        null,
        null,
        `${where}${causeLabel(cause)} (e.g. ${cause.exampleSampleId})`,
      ]);
    }
    for (const health of run.judges) {
      const top = health.topErrors[0];
      row([
        run.runId,
        run.suite,
        'judge_health',
        health.error,
        health.calls,
        health.error,
        health.notApplicable,
        `${health.judge} on ${health.model}: ${health.pass} pass, ${health.fail} fail${top === undefined ? '' : `; most common error: ${top.message}`}`,
      ]);
    }
  }
  return `${lines.join('\n')}\n`;
}
