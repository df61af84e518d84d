import { PlanValidationError, type SampleFailure } from '../spec/errors.js';
import type { TranscriptEvent, TranscriptEventInput } from '../spec/event.js';
import type { RoleBinding } from '../spec/model-spec.js';
import type { SampleRecord } from '../spec/run-record.js';
import type { Suite } from '../suites/suite.js';
import { MODEL_ROLES } from './role-registry.js';

/** Whether `role` serves the scorers (the judge): `rescore` binds and calls it, every other role is replayed. */
export function isScoringRole(role: string): boolean {
  return MODEL_ROLES.find(role)?.scores === true;
}

/** The bindings of the roles that score (those `rescore` resolves as models). */
export function scoringBindings(bindings: readonly RoleBinding[]): RoleBinding[] {
  return bindings.filter((binding) => isScoringRole(binding.role));
}

/**
 * A source sample that failed, failing again in its rescore with the same name and message: it
 * has no complete output to score. Its partial output and failing participant are kept.
 */
export class ReplayedFailureError extends Error implements SampleFailure {
  readonly participantId?: string;
  readonly partialOutput?: unknown;

  constructor(record: SampleRecord) {
    super(record.error?.message ?? 'the sample failed in the source run');
    this.name = record.error?.name ?? 'Error';
    if (record.error?.participantId !== undefined) this.participantId = record.error.participantId;
    if (record.output !== null) this.partialOutput = record.output;
  }
}

/**
 * Whether a source event is part of the solved transcript that a rescore copies: not the
 * sample's start and failure (the rescore records its own), not the scoring (judge exchanges,
 * judge re-asks, calls of the scoring roles), which the rescore does anew.
 */
function replays(event: TranscriptEvent): boolean {
  if (event.type === 'sample-start' || event.type === 'sample-error' || event.type === 'judge-call') return false;
  if (event.type === 'parse-retry' && typeof event.judge === 'string') return false;
  if (event.type === 'model-call' && isScoringRole(event.role)) return false;
  return true;
}

/** Where a replay reads each source record (a `LatestRecordLines`): one record at a time, never the run. */
export type ReplaySource = { read(id: string): Promise<SampleRecord | undefined> };

/**
 * The suite with `solve` replaced by a replay of a stored run: each sample's stored output,
 * input and termination reason are returned as they were, with the solved transcript copied
 * (each event marked `replayedFrom: <source run id>`, so it counts as no call of this run), and
 * no model is asked; each record is read when its sample is solved, so only the samples in flight are
 * held. A sample that failed in the source fails again ({@link ReplayedFailureError}).
 * The scorers are the suite's own, so they score the stored outputs anew.
 */
export function replaySuite({
  suite,
  sourceRunId,
  records,
}: {
  suite: Suite;
  sourceRunId: string;
  /** The source run's latest records (with events), read by sample id as each sample is replayed. */
  records: ReplaySource;
}): Suite {
  return {
    ...suite,
    async solve({ sample, emit }) {
      const record = await records.read(sample.id);
      if (record === undefined) {
        throw new PlanValidationError(`sample ${sample.id} has no record in the source run ${sourceRunId}`);
      }
      for (const event of record.events) {
        if (!replays(event)) continue;
        const { id: _id, time: _time, ...rest } = event;
        emit({ ...rest, replayedFrom: sourceRunId } as TranscriptEventInput);
      }
      if (record.status === 'error') throw new ReplayedFailureError(record);
      return {
        output: record.output,
        ...(record.input === undefined ? {} : { input: record.input }),
        ...(record.terminationReason === undefined ? {} : { terminationReason: record.terminationReason }),
      };
    },
  };
}
