import { createHash } from 'node:crypto';
import { formatInterval, formatMetric } from './build-report.js';
import { escapeHtml } from './html/embed-json.js';
import { csvField } from './render-csv.js';
import { escapeMarkdownCell } from './render-markdown.js';
import type { SweepTable, SweepTableEntry } from './sweep-table.js';

/** An entry as people read it: the value with its interval and n, or what stands in its place. */
function entryText(entry: SweepTableEntry, scale: SweepTable['metrics'][number]['scale']): string {
  if (entry.status === 'excluded') return '—';
  if (entry.status === 'missing') return 'missing';
  if (entry.status === 'failed') return 'error';
  if (entry.value === null) return 'n/a';
  if (entry.value.value === null) return `n/a (${entry.value.reason ?? 'no value'})`;
  const interval = formatInterval(entry.value, scale);
  const errors = entry.value.errors > 0 ? `, ${entry.value.errors} err` : '';
  const text = `${formatMetric(entry.value, scale)}${interval ? ` [${interval}]` : ''} (n=${entry.value.n}${errors})`;
  return entry.status === 'incomplete' ? `${text} *incomplete*` : text;
}

function headerCells(table: SweepTable): string[] {
  const single = table.metrics.length === 1;
  return table.cols.flatMap((col) =>
    table.metrics.map((metric) => (single ? col || metric.label : `${col ? `${col} ` : ''}${metric.label}`)),
  );
}

/** Reasons of the entries that have no number, one line per cell. */
function notes(table: SweepTable): string[] {
  const lines = new Map<string, string>();
  table.entries.forEach((row, r) => {
    row.forEach((col, c) => {
      for (const entry of col) {
        if (entry.cellId === null || entry.reason === undefined) continue;
        if (entry.value === null) {
          lines.set(entry.cellId, `${table.rows[r] ?? ''} / ${table.cols[c] ?? ''}: ${entry.status}: ${entry.reason}`);
        } else if (entry.status === 'incomplete') {
          lines.set(entry.cellId, `${entry.cellId}: incomplete: ${entry.reason}`);
        }
      }
    });
  });
  return [...lines.values()];
}

const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

function pairedLines(table: SweepTable): string[] {
  return table.paired.flatMap((test) => {
    const head = `${test.row || 'all'}: ${test.column} vs ${test.baseline}`;
    if (test.reason !== undefined) return [`${head}: no paired test (${test.reason})`];
    return test.scores.map(
      (score) =>
        `${head}, ${score.key}: fail rate ${percent(score.failRateA)} → ${percent(score.failRateB)} over ${score.pairs} paired samples; McNemar p = ${score.pValue.toPrecision(3)}${score.ci95 ? `; difference 95% CI ${percent(score.ci95[0])} to ${percent(score.ci95[1])}${score.ciMethod === 'newcombe' ? ' (Newcombe)' : ''}` : ''}`,
    );
  });
}

/** The sweep table as Markdown: one table, then the notes on cells without numbers and the paired tests. */
export function renderSweepMarkdown(table: SweepTable): string {
  const rowHead = table.rowAxes.join(' · ') || 'sweep';
  const header = [rowHead, ...headerCells(table)];
  const lines = [
    `# ${escapeMarkdownCell(table.name)}`,
    '',
    `Cells: ${table.counts.ok} complete, ${table.counts.incomplete} incomplete, ${table.counts.failed} failed, ${table.counts.missing} missing. Columns: ${table.colAxes.join(' · ') || '—'}. Values with 95% intervals and n.`,
    '',
    `| ${header.map(escapeMarkdownCell).join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...table.rows.map((row, r) => {
      const values = (table.entries[r] ?? []).flatMap((col) =>
        col.map((entry, m) => entryText(entry, table.metrics[m]?.scale ?? 'raw')),
      );
      return `| ${[row || 'all', ...values].map(escapeMarkdownCell).join(' | ')} |`;
    }),
  ];
  const reasons = notes(table);
  if (reasons.length > 0)
    lines.push('', '## Cells without a complete result', '', ...reasons.map((line) => `- ${escapeMarkdownCell(line)}`));
  const paired = pairedLines(table);
  if (paired.length > 0) {
    lines.push(
      '',
      '## Paired tests against the first column',
      '',
      ...paired.map((line) => `- ${escapeMarkdownCell(line)}`),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** One CSV row per table entry, values on their stored scale, with the interval, n, errors and status. */
export function renderSweepCsv(table: SweepTable): string {
  const lines = [
    [
      'row',
      'column',
      'cell',
      'status',
      'metric',
      'value',
      'ci_low',
      'ci_high',
      'n',
      'errors',
      'not_applicable',
      'reason',
    ].join(','),
  ];
  table.entries.forEach((row, r) => {
    row.forEach((col, c) => {
      col.forEach((entry, m) => {
        const value = entry.value;
        lines.push(
          [
            table.rows[r] ?? '',
            table.cols[c] ?? '',
            entry.cellId,
            entry.status,
            table.metrics[m]?.id ?? '',
            value?.value ?? null,
            value?.ci95?.[0] ?? null,
            value?.ci95?.[1] ?? null,
            value?.n ?? null,
            value?.errors ?? null,
            value?.notApplicable ?? null,
            entry.reason ?? value?.reason ?? null,
          ]
            .map(csvField)
            .join(','),
        );
      });
    });
  });
  return `${lines.join('\n')}\n`;
}

/** The table model as JSON. */
export function renderSweepJson(table: SweepTable): string {
  return `${JSON.stringify(table, null, 2)}\n`;
}

const STYLE =
  'body{font:14px system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.3rem .6rem;text-align:right}th:first-child,td:first-child{text-align:left}.missing,.failed,.excluded{color:#a33}.incomplete{color:#a60}';

/** The table as one self-contained HTML page (no script; a CSP that allows only its own stylesheet). */
export function renderSweepHtml(table: SweepTable): string {
  const styleHash = createHash('sha256').update(STYLE).digest('base64');
  const csp = `default-src 'none'; style-src 'sha256-${styleHash}'; base-uri 'none'; form-action 'none'`;
  const header = [table.rowAxes.join(' · ') || 'sweep', ...headerCells(table)];
  const body = table.rows.map((row, r) => {
    const cells = (table.entries[r] ?? []).flatMap((col) =>
      col.map((entry, m) => {
        const title = entry.reason ?? '';
        return `<td class="${entry.status}" title="${escapeHtml(title)}">${escapeHtml(entryText(entry, table.metrics[m]?.scale ?? 'raw'))}</td>`;
      }),
    );
    return `<tr><td>${escapeHtml(row || 'all')}</td>${cells.join('')}</tr>`;
  });
  const list = (items: string[]) =>
    items.length === 0 ? '' : `<ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    `<title>${escapeHtml(table.name)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${escapeHtml(table.name)}</h1>`,
    `<p>Cells: ${table.counts.ok} complete, ${table.counts.incomplete} incomplete, ${table.counts.failed} failed, ${table.counts.missing} missing.</p>`,
    `<table><thead><tr>${header.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('')}</tr></thead><tbody>${body.join('')}</tbody></table>`,
    notes(table).length > 0 ? `<h2>Cells without a complete result</h2>${list(notes(table))}` : '',
    pairedLines(table).length > 0 ? `<h2>Paired tests against the first column</h2>${list(pairedLines(table))}` : '',
    '</body></html>',
    '',
  ].join('\n');
}
