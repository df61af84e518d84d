import type { ZodType } from 'zod';
import type { StructuredReply } from '../../../generation/index.js';
import type { Message } from '../../../spec/message.js';
import type { PacGenerateOptions } from './generate-options.js';
import type { PacGenerationJournal } from './generation-journal.js';
import type { PacGenerationStage } from './pac-rule-issue.js';

/** Progress of a generation, for the CLI's progress lines (never needed for correctness). */
export type PacGenerateEvent =
  | { type: 'unit-resumed'; unit: string; file: string }
  | { type: 'stage-accepted'; unit: string; stage: PacGenerationStage; agent?: string; attempt: number }
  | {
      type: 'stage-failed';
      unit: string;
      stage: PacGenerationStage;
      agent?: string;
      attempt: number;
      /** The broken rules (or the parse problem) that make this attempt fail. */
      reasons: string[];
    }
  | { type: 'unit-written'; unit: string; file: string }
  | { type: 'unit-rejected'; unit: string; stage: PacGenerationStage; agent?: string; reasons: string[] };

/** One structured datagen request. */
export type PacDatagenRequest<T> = {
  messages: Message[];
  schema: ZodType<T>;
  schemaName: string;
  ordinalBase: number;
};

/** What every stage needs: options, journal, the datagen call and the event sink. */
export type PacGenerationContext = {
  options: PacGenerateOptions;
  journal: PacGenerationJournal;
  /** Asks the datagen model (concurrency-limited, seeded, parse-retried). */
  ask<T>(request: PacDatagenRequest<T>): Promise<StructuredReply<T>>;
  emit(event: PacGenerateEvent): void;
  signal: AbortSignal;
};

/** A stage outcome: the accepted value, or the reasons of the last failed attempt. */
export type PacStageOutcome<T> = { ok: true; value: T } | { ok: false; reasons: string[]; attempts: number };

/** `sampleOrdinal` base of an attempt (1-based): parse retries (at most 9) count up within it. */
export function attemptOrdinal(attempt: number, offset = 0): number {
  return offset + (attempt - 1) * 10;
}
