import type { PerSampleRow } from './per-sample-rows.js';
import { csvField } from './render-csv.js';

/** One JSON object per line and sample (the {@link PerSampleRow} shape). */
export function renderPerSampleJsonl(rows: readonly PerSampleRow[]): string {
  return rows.map((row) => perSampleJsonlLine(row)).join('');
}

/** One row's JSONL line (see `renderPerSampleJsonl`). */
export function perSampleJsonlLine(row: PerSampleRow): string {
  return `${JSON.stringify(row)}\n`;
}

/**
 * One CSV row per sample: run_id, sample_id, scenario_id, variant (`key=value;…`), epoch, defense,
 * status, attempt, error_name, error_message, then for every score key seen in any sample (in
 * first-seen order) `<key>.verdict`, `<key>.value` and `<key>.explanation`; a sample without
 * that score leaves them empty. A key a sample scores twice keeps the first.
 */
export function renderPerSampleCsv(rows: readonly PerSampleRow[]): string {
  const keys = new PerSampleScoreKeys();
  for (const row of rows) keys.add(row);
  return `${[perSampleCsvHeader(keys.list), ...rows.map((row) => perSampleCsvLine({ row, keys: keys.list }))].join('\n')}\n`;
}

/** The score keys of the CSV columns, in first-seen order over the rows added. */
export class PerSampleScoreKeys {
  readonly list: string[] = [];
  private readonly seen = new Set<string>();

  /** Adds the keys of one row's scores not seen before. */
  add(row: { scores: readonly Pick<PerSampleRow['scores'][number], 'key'>[] }): void {
    for (const score of row.scores) {
      if (this.seen.has(score.key)) continue;
      this.seen.add(score.key);
      this.list.push(score.key);
    }
  }
}

/** The CSV header line for these score keys, without its newline (see `renderPerSampleCsv`). */
export function perSampleCsvHeader(keys: readonly string[]): string {
  const header = [
    'run_id',
    'sample_id',
    'scenario_id',
    'variant',
    'epoch',
    'defense',
    'status',
    'attempt',
    'error_name',
    'error_message',
    ...keys.flatMap((key) => [`${key}.verdict`, `${key}.value`, `${key}.explanation`]),
  ];
  return header.map((field) => csvField(field)).join(',');
}

/** One row's CSV line under these score keys, without its newline (see `renderPerSampleCsv`). */
export function perSampleCsvLine({ row, keys }: { row: PerSampleRow; keys: readonly string[] }): string {
  const byKey = new Map<string, PerSampleRow['scores'][number]>();
  for (const score of row.scores) if (!byKey.has(score.key)) byKey.set(score.key, score);
  const fields: Array<string | number | null> = [
    row.runId,
    row.id,
    row.scenarioId,
    Object.entries(row.variant)
      .map(([key, value]) => `${key}=${value}`)
      .join(';'),
    row.epoch,
    row.defense,
    row.status,
    row.attempt,
    row.error?.name ?? null,
    row.error?.message ?? null,
    ...keys.flatMap((key) => {
      const score = byKey.get(key);
      return score === undefined ? [null, null, null] : [score.verdict, score.value, score.explanation];
    }),
  ];
  return fields.map((field) => csvField(field)).join(',');
}
