import type { RunHeader, SampleRecord } from '../spec/run-record.js';
import type { Score } from '../spec/score.js';
import { formatScoreTarget } from '../spec/score-target.js';

/** One score of a sample, flattened for export. */
export type PerSampleScore = {
  /** `<scorer>` or `<scorer>[<target text>]`: the column prefix in CSV. */
  key: string;
  scorer: string;
  /** The target's text (`formatScoreTarget`), null without one. */
  target: string | null;
  verdict: Score['verdict'];
  value: number | null;
  explanation: string | null;
};

/** One sample of a run, flattened for pandas and spreadsheets. */
export type PerSampleRow = {
  runId: string;
  id: string;
  scenarioId: string;
  variant: Record<string, string>;
  epoch: number;
  /** The sample's defense (its `defense` variant key), else the run's defenses joined by `+`. */
  defense: string;
  status: SampleRecord['status'];
  attempt: number;
  error: { name: string; message: string } | null;
  scores: PerSampleScore[];
};

/** The column prefix of a score: its scorer, and its target in brackets when it has one. */
export function scoreKey(score: Pick<Score, 'scorer' | 'target'>): string {
  return score.target === undefined ? score.scorer : `${score.scorer}[${formatScoreTarget(score.target)}]`;
}

/** The latest record of every sample as one flat row (id, scenario, variant, epoch, defense, status, scores, error). */
export function perSampleRows({
  header,
  records,
}: {
  header: RunHeader;
  records: readonly SampleRecord[];
}): PerSampleRow[] {
  return records.map((record) => perSampleRow({ header, record }));
}

/** One record as its flat row (see `perSampleRows`). */
export function perSampleRow({ header, record }: { header: RunHeader; record: SampleRecord }): PerSampleRow {
  return {
    runId: header.runId,
    id: record.id,
    scenarioId: record.scenarioId,
    variant: record.variant,
    epoch: record.epoch,
    defense: record.variant.defense ?? (header.defenses.join('+') || 'vanilla'),
    status: record.status,
    attempt: record.attempt,
    error: record.error === undefined ? null : { name: record.error.name, message: record.error.message },
    scores: record.scores.map((score) => ({
      key: scoreKey(score),
      scorer: score.scorer,
      target: score.target === undefined ? null : formatScoreTarget(score.target),
      verdict: score.verdict,
      value: score.value,
      explanation: score.explanation ?? null,
    })),
  };
}
