import { type SampleRecord, sampleRecordSchema } from '../../src/spec/run-record.js';
import type { ScoreTarget } from '../../src/spec/score-target.js';

/**
 * `records` as a run stored them before score targets were structured: every score's target
 * written as the text `oldText` gives (the old grammar, spelled out by the test), then read back
 * through the record schema exactly as a run store reads an old `samples.jsonl`.
 */
export function readBackWithTextTargets({
  records,
  oldText,
}: {
  records: readonly SampleRecord[];
  oldText: (target: ScoreTarget, scorer: string) => string;
}): SampleRecord[] {
  return records.map((record) => {
    const stored = JSON.parse(JSON.stringify(record)) as Omit<SampleRecord, 'scores'> & {
      scores: Array<{ scorer: string; target?: ScoreTarget | string }>;
    };
    for (const score of stored.scores) {
      if (score.target !== undefined && typeof score.target !== 'string')
        score.target = oldText(score.target, score.scorer);
    }
    // The texts really are what the old grammar wrote, so the schema has something to convert.
    if (stored.scores.some((score) => typeof score.target === 'object'))
      throw new Error('a target was left structured');
    return sampleRecordSchema.parse(stored);
  });
}
