import type { PerSampleRow } from './per-sample-rows.js';
import { csvField } from './render-csv.js';

/** One JSON object per line and sample (the {@link PerSampleRow} shape). */
export function renderPerSampleJsonl(rows: readonly PerSampleRow[]): string {
  return rows.map((row) => `${JSON.stringify(row)}\n`).join('');
}

/**
 * One CSV row per sample: run_id, sample_id, scenario_id, variant (`key=value;…`), epoch, defense,
 * status, attempt, error_name, error_message, then for every score key seen in any sample (in
 * first-seen order) `<key>.verdict`, `<key>.value` and `<key>.explanation`; a sample without
 * that score leaves them empty. A key a sample scores twice keeps the first.
 */
export function renderPerSampleCsv(rows: readonly PerSampleRow[]): string {
  const keys: string[] = [];
  for (const row of rows) for (const score of row.scores) if (!keys.includes(score.key)) keys.push(score.key);
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
  const lines = [header.map((field) => csvField(field)).join(',')];
  for (const row of rows) {
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
    lines.push(fields.map((field) => csvField(field)).join(','));
  }
  return `${lines.join('\n')}\n`;
}
