import { causeLabel, causeSource } from '../spec/error-cause.js';
import type { MetricDefinition } from '../spec/metric-definition.js';
import { formatInterval, formatMetric, type Report, runLabel } from './build-report.js';
import { METRICS_DOC_PATH } from './metric-anchor.js';
import { DIRECTION_TEXT } from './render-metric-docs.js';

/** Escapes text for a Markdown table cell: pipes, backslashes, angle brackets and line breaks. */
export function escapeMarkdownCell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r?\n/g, ' ');
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map(escapeMarkdownCell).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

/** One row per run (model and defenses) with the suite's headline metrics and the run's cost. */
function comparison(report: Report): string[] {
  const rows = report.headline.map((id) => report.rows.find((row) => row.id === id)).filter((row) => row !== undefined);
  const header = [
    'Run',
    ...rows.map((row) => (row.scale === 'percent' ? `${row.label} (%)` : row.label)),
    'Calls',
    'Cost (USD)',
  ];
  const body = report.runs.map((run, index) => [
    runLabel(run),
    ...rows.map((row) => {
      const value = row.cells[index]?.value ?? null;
      const interval = formatInterval(value, row.scale);
      return `${formatMetric(value, row.scale)}${interval === '' ? '' : ` (${interval})`}`;
    }),
    String(Object.values(run.usage).reduce((sum, usage) => sum + usage.calls, 0)),
    run.costUsd === null ? 'unknown' : run.costUsd.toFixed(4),
  ]);
  return ['## Comparison', '', table(header, body), ''];
}

function definitionLine(definition: MetricDefinition, anchor: string | undefined): string {
  const link = anchor === undefined ? '' : ` ([definition](${METRICS_DOC_PATH}#${anchor}))`;
  return `- **${definition.label}** (\`${definition.id}\`, ${DIRECTION_TEXT[definition.direction]}): ${definition.definition}${link}`;
}

/**
 * What each metric of the table means, linked to its entry in `docs/metrics.md` (which
 * `confidant list metrics <suite>` prints too). Metrics the suite does not define are named.
 */
function definitions(report: Report): string[] {
  const lines = report.rows.flatMap((row) => {
    if (row.definition === undefined) return [];
    const worst = row.worstDefinition;
    return [
      definitionLine(row.definition, row.anchor),
      ...(worst === undefined ? [] : [definitionLine(worst, row.worstAnchor)]),
    ];
  });
  const undefinedIds = report.rows.filter((row) => row.definition === undefined).map((row) => `\`${row.id}\``);
  if (undefinedIds.length > 0) lines.push(`- Not defined by the suite: ${undefinedIds.join(', ')}.`);
  return lines.length === 0 ? [] : ['## Metric definitions', '', ...lines, ''];
}

/**
 * One line per metric without a value, saying why (from the metric's `reason`), and one per value
 * that is a convention rather than a measurement (its `convention`).
 */
function nullReasons(report: Report): string[] {
  const lines: string[] = [];
  const conventions: string[] = [];
  for (const row of report.rows) {
    row.cells.forEach((cell, index) => {
      for (const [which, value] of [
        ['', cell.value],
        [' (worst case)', cell.worst],
      ] as const) {
        if (value === null) continue;
        const run = report.runs.length > 1 && report.runs[index] ? ` — ${runLabel(report.runs[index])}` : '';
        if (value.value !== null && value.convention !== undefined) {
          conventions.push(`- ${escapeMarkdownCell(`${row.label}${which}${run}: ${value.convention}`)}`);
        }
        if (value.value !== null) continue;
        lines.push(`- ${escapeMarkdownCell(`${row.label}${which}${run}: ${value.reason ?? 'no reason recorded'}`)}`);
      }
    });
  }
  return [
    ...(lines.length === 0 ? [] : ['Why some values are n/a:', '', ...lines, '']),
    ...(conventions.length === 0 ? [] : ['Values that are conventions, not measurements:', '', ...conventions, '']),
  ];
}

/** The errors by cause of every run: what failed, how often, and one sample to look at. */
function errorsSection(report: Report): string[] {
  const rows = report.runs.flatMap((run) =>
    run.errorCauses.map((cause) => [
      run.runId,
      causeSource(cause) ?? 'sample',
      cause.name,
      causeLabel(cause),
      String(cause.count),
      cause.exampleSampleId,
    ]),
  );
  if (rows.length === 0) return [];
  const totals = report.runs.flatMap((run) =>
    run.failures === undefined
      ? []
      : [
          `- ${escapeMarkdownCell(run.runId)}: ${run.failures.errored} errored samples, ${run.failures.judgeErrored} samples with a judge error (${run.failures.judgeErrors} failed judge calls)${(run.failures.scoreErrored ?? 0) > 0 ? `, ${run.failures.scoreErrored} samples a scorer could not score` : ''}${run.failures.rate === null ? '' : `, ${(run.failures.rate * 100).toFixed(1)}% of finished samples failed`}`,
        ],
  );
  return [
    '## Errors',
    '',
    ...totals,
    ...(totals.length > 0 ? [''] : []),
    table(['Run', 'Where', 'Error', 'Cause', 'Count', 'Example sample'], rows),
    '',
  ];
}

/** Per judge and judge model: verdict counts and the most common errors. */
function judgeHealthSection(report: Report): string[] {
  const rows = report.runs.flatMap((run) =>
    run.judges.map((health) => [
      run.runId,
      health.judge,
      health.model,
      String(health.calls),
      String(health.pass),
      String(health.fail),
      String(health.notApplicable),
      String(health.error),
      health.topErrors.map((error) => `${error.message} ×${error.count}`).join('; ') || '—',
    ]),
  );
  if (rows.length === 0) return [];
  return [
    '## Judge health',
    '',
    table(['Run', 'Judge', 'Model', 'Calls', 'Pass', 'Fail', 'n/a', 'Error', 'Most common errors'], rows),
    '',
  ];
}

/**
 * Renders a report as Markdown: the paper-style metric table (value, its 95% interval when the
 * summary has one, worst case, and the n / errors / n/a behind each value) with the reason of every value that is n/a, then the errors
 * by cause and the judge health, then runs, counts and per-role usage and cost (every call made;
 * the part spent on superseded records is shown beside it), and last what each metric means (with
 * a link to its definition in `docs/metrics.md`).
 */
export function renderMarkdown(report: Report): string {
  const out: string[] = [`# ${report.title}`, ''];
  const hasWorst = report.rows.some((row) => row.cells.some((cell) => cell.worst !== null));
  const hasInterval = report.rows.some((row) =>
    row.cells.some((cell) => cell.value?.ci95 !== undefined || cell.worst?.ci95 !== undefined),
  );
  const metricHeader = ['Metric'];
  for (const run of report.runs) {
    const label = report.runs.length > 1 ? ` (${runLabel(run)})` : '';
    metricHeader.push(`Value${label}`);
    if (hasInterval) metricHeader.push(`95% CI${label}`);
    if (hasWorst) metricHeader.push(`Worst${label}`);
    if (hasWorst && hasInterval) metricHeader.push(`Worst 95% CI${label}`);
    metricHeader.push(`n / errors / n/a${label}`);
  }
  const metricRows = report.rows.map((row) => {
    const cells = [row.scale === 'percent' ? `${row.label} (%)` : row.label];
    for (const cell of row.cells) {
      cells.push(formatMetric(cell.value, row.scale));
      if (hasInterval) cells.push(formatInterval(cell.value, row.scale) || '—');
      if (hasWorst) cells.push(formatMetric(cell.worst, row.scale));
      if (hasWorst && hasInterval) cells.push(formatInterval(cell.worst, row.scale) || '—');
      cells.push(cell.value ? `${cell.value.n} / ${cell.value.errors} / ${cell.value.notApplicable}` : '—');
    }
    return cells;
  });
  out.push(table(metricHeader, metricRows), '');
  out.push(...nullReasons(report));
  if (report.runs.length > 1 && report.headline.length > 0) out.push(...comparison(report));
  for (const run of report.runs) {
    // Suite-rendered tables (e.g. PAC-Bench's grid) are built from stored summaries by the suite.
    if (run.extraMarkdown.trim() !== '') out.push(`## ${run.runId}`, '', run.extraMarkdown.trimEnd(), '');
  }
  out.push(...errorsSection(report), ...judgeHealthSection(report));
  out.push('## Runs', '');
  out.push(
    table(
      ['Run', 'Models', 'Defenses', 'Options', 'Epochs', 'Samples ok / error / missing', 'Cost (USD)'],
      report.runs.map((run) => [
        run.runId,
        Object.entries(run.models)
          .map(([role, models]) => `${role}=${models.join(',')}`)
          .join('; '),
        run.defenses.join(', ') || 'vanilla',
        JSON.stringify(run.options),
        String(run.epochs),
        `${run.counts.success} / ${run.counts.error} / ${run.counts.missing}${run.complete ? '' : ' (incomplete)'}`,
        run.costUsd === null ? 'unknown' : run.costUsd.toFixed(4),
      ]),
    ),
    '',
  );
  out.push('## Usage by role', '');
  const hasSuperseded = report.runs.some((run) => run.supersededUsage !== undefined);
  out.push(
    table(
      [
        'Run',
        'Role',
        'Calls',
        'Cached',
        'Input tokens',
        'Output tokens',
        'Cost (USD)',
        ...(hasSuperseded ? ['Of which superseded (calls / cost)'] : []),
      ],
      report.runs.flatMap((run) =>
        Object.entries(run.usage).map(([role, usage]) => {
          const superseded = run.supersededUsage?.[role];
          return [
            run.runId,
            role,
            String(usage.calls),
            String(usage.cachedCalls),
            String(usage.inputTokens),
            String(usage.outputTokens),
            usage.costUsd === null ? 'unknown' : usage.costUsd.toFixed(4),
            ...(hasSuperseded
              ? [
                  superseded === undefined
                    ? '0'
                    : `${superseded.calls} / ${superseded.costUsd === null ? 'unknown' : superseded.costUsd.toFixed(4)}`,
                ]
              : []),
          ];
        }),
      ),
    ),
    '',
  );
  if (hasInterval) {
    out.push(
      '95% CI: Wilson score interval for proportions of independent units; percentile bootstrap over scenarios (200 resamples) for clustered or aggregated metrics (epochs, worst case over epochs, means of means); when every scenario of a clustered rate has the same outcome (the bootstrap collapses to one point), Wilson with each scenario counted as one unit. See `summary.json` `ciMethod`.',
      '',
    );
  }
  out.push(...definitions(report));
  return out.join('\n');
}
