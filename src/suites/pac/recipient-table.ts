import type { MetricValue } from '../../spec/metric-value.js';
import type { RunSummary } from '../../spec/run-record.js';

/** The separator of `privacy_pair` keys (`<sender>-><recipient>`); agent ids never contain it. */
export const PAC_PAIR_SEPARATOR = '->';

function percent(value: MetricValue | undefined): string {
  return value === undefined || value.value === null ? '–' : (value.value * 100).toFixed(1);
}

function escapeCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|');
}

function cell(metrics: Record<string, MetricValue> | undefined): string {
  if (metrics === undefined) return '';
  return `${percent(metrics.ps)} / ${percent(metrics.acc_privacy)} (n=${metrics.acc_privacy?.n ?? 0})`;
}

/**
 * Who told what to whom, for N-party runs (markdown): one row per sender, one column per
 * recipient, each cell `PS / Acc_privacy` (percent) of what that recipient received from that
 * sender, judged against the policies the recipient may not learn, with the number of runs; a
 * last row with what each recipient received from everyone. Reads `summary.groups.privacy_pair`
 * and `privacy_recipient` as the PAC metrics store them. A pair that never exchanged a message is
 * blank; a metric with no value is `–`. Returns the empty string when the summary has neither
 * group (every run without N-party scenarios).
 */
export function pacRecipientTable(summary: Pick<RunSummary, 'groups'>): string {
  const pairs = summary.groups?.privacy_pair ?? {};
  const received = summary.groups?.privacy_recipient ?? {};
  if (Object.keys(pairs).length === 0 && Object.keys(received).length === 0) return '';
  const senders: string[] = [];
  const recipients: string[] = [...Object.keys(received)];
  const cells = new Map<string, Record<string, MetricValue>>();
  for (const [key, metrics] of Object.entries(pairs)) {
    const at = key.indexOf(PAC_PAIR_SEPARATOR);
    const sender = at === -1 ? key : key.slice(0, at);
    const recipient = at === -1 ? '' : key.slice(at + PAC_PAIR_SEPARATOR.length);
    if (!senders.includes(sender)) senders.push(sender);
    if (!recipients.includes(recipient)) recipients.push(recipient);
    cells.set(`${sender}\u0000${recipient}`, metrics);
  }
  const lines = [
    'Privacy by recipient. Cells: PS / Acc_privacy (%) of what the recipient received from the sender, judged against what that recipient may not learn; n = runs.',
    '',
    `| Sender \\ Recipient | ${recipients.map(escapeCell).join(' | ')} |`,
    `|---|${recipients.map(() => '---|').join('')}`,
  ];
  for (const sender of senders) {
    lines.push(
      `| ${escapeCell(sender)} | ${recipients.map((recipient) => cell(cells.get(`${sender}\u0000${recipient}`))).join(' | ')} |`,
    );
  }
  lines.push(`| Every sender | ${recipients.map((recipient) => cell(received[recipient])).join(' | ')} |`);
  return `${lines.join('\n')}\n`;
}
