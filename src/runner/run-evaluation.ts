import { errorCauseOf } from '../models/error-cause-of.js';
import type { EmitEvent, ModelRolesFactory } from '../spec/chat-model.js';
import type { Defense } from '../spec/defense.js';
import { PlanValidationError, runStopOf, sampleFailureOf } from '../spec/errors.js';
import type { TranscriptEvent } from '../spec/event.js';
import { type RunSummary, type SampleRecord, sampleRecordSchema } from '../spec/run-record.js';
import type { RunStore } from '../spec/run-store.js';
import type { Score } from '../spec/score.js';
import { validateForWrite } from '../store/validate-run-data.js';
import { type SampleSpec, type Suite, scoreSample } from '../suites/suite.js';
import { isCallOfThisRun, usageFromEvents, usageOfCall } from './aggregate-usage.js';
import { createSummaryBuilder } from './build-summary.js';
import { checkedScores } from './checked-scores.js';
import { createEventRecorder } from './create-event-recorder.js';
import { createFailFast, type FailFastOptions, type FailFastStop } from './fail-fast.js';
import { type CauseLine, type FailureContribution, FailureTally, failureContribution } from './failure-tally.js';
import { createIsoClock } from './iso-clock.js';
import { runPool } from './run-pool.js';
import { judgmentsFromEvents } from './sample-failures.js';
import { briefOf, type PendingSample, type RecordBrief, selectPending } from './select-pending.js';

/**
 * Why a run ended before every planned sample had a record; the run stays resumable.
 * `fail-fast`: it was failing (see `RunEvaluationOptions.failFast`).
 */
export type RunStopReason = 'budget' | 'interrupted' | 'fail-fast';

/**
 * The live numbers of a run. Reported once at the start (`update: 'start'`, before any sample),
 * after every model call (`model-call`: tokens and cost move) and after every finished sample
 * (`sample`). Counts cover the plan's latest records, those of earlier sessions included; tokens,
 * cost and `sessionDone` cover this call only, so an ETA from them uses this session's pace.
 */
export type RunProgress = {
  update: 'start' | 'model-call' | 'sample';
  planned: number;
  /** Planned samples that have a record, including ones recorded before this call. */
  done: number;
  /** Planned samples whose latest record is an error. */
  errors: number;
  /** Failed judge calls in the latest records, plus the samples a scorer could not score. */
  judgeErrors: number;
  /** Errored samples, failed judge calls and scorer errors by cause, most common first. */
  causes: CauseLine[];
  /** Records appended by this call. */
  sessionDone: number;
  inputTokens: number;
  outputTokens: number;
  /** `null` once any call had an unknown price. */
  costUsd: number | null;
  /** When this call started. */
  startedAt: string;
};

/** What `runEvaluation` returns; `summary` has also been written to the store. */
export type RunEvaluationResult = {
  summary: RunSummary;
  stopped?: RunStopReason;
  /** Why fail-fast stopped the run (with `stopped: 'fail-fast'`). */
  failFast?: FailFastStop;
  /** How many records this call appended. */
  executed: number;
};

/** The inputs of `runEvaluation`. */
export type RunEvaluationOptions = {
  suite: Suite;
  /** The suite options, already parsed with `suite.options`. */
  options: unknown;
  scenarios: unknown[];
  /** The samples this run (or shard) is responsible for, from `expandSamples`/`selectShard`. */
  samples: SampleSpec[];
  /** Must already hold the run header (the summary uses its run id). */
  store: RunStore;
  models: ModelRolesFactory;
  defenses?: Defense[];
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  /** Also re-run samples whose latest record is an error or has a failed judge call (attempt + 1). */
  retryErrors?: boolean;
  /**
   * Stop a failing run early (no new samples; those in flight settle; resumable): after
   * `consecutive` samples in a row failed with the same provider cause, or once more than
   * `maxErrorRate` of this call's samples failed (from 20 on). Default: never.
   */
  failFast?: FailFastOptions;
  now?: () => Date;
  /**
   * Check every event as it is emitted and every record before it is appended against the run
   * format (default true). Sessions (`evaluate`, `resume`, the CLI) pass false unless asked
   * (`CONFIDANT_VALIDATE=1`): events and records are built here in typed code. The scores a suite's
   * scorers return come from suite code and are checked either way.
   */
  validate?: boolean;
};

/**
 * Runs the samples that have no record yet (run and resume are the same operation), appending
 * each record to the store as soon as its sample finishes, then writes and returns the summary.
 *
 * Per sample: events are collected (`sample-start` first), `suite.solve` then the suite's scorers (`scoreSample`)
 * run, usage is aggregated from the `model-call` events and the judge calls are summarised in
 * `judgments`. A thrown error gives a record with `status: 'error'`, the error's name, message and
 * cause, a `sample-error` event, the partial events and no scores; an error carrying
 * `participantId` and `partialOutput` keeps them (`error.participantId`, `output`). Two failures
 * are not the sample's fault and leave no record: a `BudgetExceededError` (stop reason `budget`)
 * and an abort of `signal` or a `RunInterruptedError` (`interrupted`). After either, or once
 * `failFast` says the run is failing (`fail-fast`), no new sample starts; samples in flight finish
 * or fail, and the run can be resumed later. Failing to append a record is fatal and rethrown
 * once in-flight samples settle.
 */
export async function runEvaluation({
  suite,
  options,
  scenarios,
  samples,
  store,
  models,
  defenses = [],
  concurrency = 4,
  signal,
  onProgress,
  retryErrors = false,
  failFast,
  now: nowOption,
  validate = true,
}: RunEvaluationOptions): Promise<RunEvaluationResult> {
  const now = nowOption ?? (() => new Date());
  // One ISO string per millisecond for every sample's events and times (see createIsoClock).
  const clock = createIsoClock(nowOption);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new PlanValidationError(`concurrency must be a positive integer, got ${concurrency}`);
  }
  // Only the run id is kept: the parsed header holds a second copy of every planned sample id.
  const { runId } = await store.readHeader();
  const scenarioById = new Map(scenarios.map((scenario) => [suite.dataset.id(scenario), scenario]));
  const unknown = samples.find((sample) => !scenarioById.has(sample.scenarioId));
  if (unknown) {
    throw new PlanValidationError(
      `sample '${unknown.id}' refers to scenario '${unknown.scenarioId}', which was not loaded`,
    );
  }

  // One streaming pass over what is already stored: per planned id only the latest record's brief
  // and its failure tally are kept, never the record, so a resume's memory does not grow with the run.
  // The same pass starts the summary, which then takes each record this call appends: the store
  // holds one writer (the run lock), so that is what a re-read at the end would see, in the same order.
  const planned = samples.map((sample) => sample.id);
  const plannedIds = new Set(planned);
  const summary = createSummaryBuilder({ suite, planned: plannedIds });
  const latest = new Map<string, RecordBrief & { failures: FailureContribution }>();
  await store.scanSamples({ events: false }, (record) => {
    summary.add(record);
    if (plannedIds.has(record.id)) latest.set(record.id, { ...briefOf(record), failures: failureContribution(record) });
  });
  const { pending, done } = selectPending({ samples, latest, retryErrors });
  // Samples about to be redone no longer count as failed: their new record replaces the old one.
  // Only ids with a stored record can be redone, so a fresh run builds no set of its pending ids.
  const redone = new Set<string>();
  if (latest.size > 0) for (const item of pending) if (latest.has(item.sample.id)) redone.add(item.sample.id);
  const tally = new FailureTally();
  for (const [id, { failures }] of latest) if (!redone.has(id)) tally.setContribution(id, failures);
  latest.clear();
  const progress: RunProgress = {
    update: 'start',
    planned: samples.length,
    done,
    errors: 0,
    judgeErrors: 0,
    causes: [],
    sessionDone: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    startedAt: now().toISOString(),
  };
  const refreshFailures = () => {
    const snapshot = tally.snapshot();
    progress.errors = snapshot.errored;
    progress.judgeErrors = snapshot.judgeErrors + (snapshot.scoreErrored ?? 0);
    progress.causes = tally.lines();
  };
  const report = (update: RunProgress['update']) => onProgress?.({ ...progress, update });
  refreshFailures();
  report('start');

  const runSignal = signal ?? new AbortController().signal;
  const monitor = failFast === undefined ? undefined : createFailFast(failFast);
  let stopped: RunStopReason | undefined;
  let failFastStop: FailFastStop | undefined;
  let fatal: { error: unknown } | undefined;
  let executed = 0;
  const onEvent = (event: TranscriptEvent) => {
    if (!isCallOfThisRun(event)) return;
    const usage = usageOfCall(event);
    progress.inputTokens += usage.inputTokens;
    progress.outputTokens += usage.outputTokens;
    progress.costUsd = progress.costUsd === null || usage.costUsd === null ? null : progress.costUsd + usage.costUsd;
    report('model-call');
  };

  const runPending = async (item: PendingSample) => {
    if (runSignal.aborted) stopped ??= 'interrupted';
    if (stopped !== undefined || fatal !== undefined) return;
    const result = await runOneSample({
      suite,
      options,
      scenario: scenarioById.get(item.sample.scenarioId),
      item,
      models,
      defenses,
      signal: runSignal,
      clock,
      onEvent,
      validate,
    });
    if (result.kind === 'stopped') {
      stopped ??= result.reason;
      return;
    }
    try {
      if (validate) validateForWrite({ schema: sampleRecordSchema, value: result.record, what: 'sample record' });
      await store.appendSample(result.record);
    } catch (error) {
      fatal ??= { error };
      return;
    }
    summary.add(asStored(result.record));
    executed += 1;
    progress.sessionDone += 1;
    progress.done += 1;
    // The counts and cause lines only move when this record or the one it replaces failed.
    if (tally.set(result.record)) refreshFailures();
    report('sample');
    const verdict = monitor?.observe(result.record);
    if (verdict !== undefined && stopped === undefined) {
      stopped = 'fail-fast';
      failFastStop = verdict;
    }
  };
  // A fixed pool of workers rather than one queued promise per pending sample: memory stays flat in N.
  await runPool({ items: pending, concurrency, work: runPending });
  if (fatal) throw fatal.error;

  const built = summary.build({
    runId,
    suite,
    options,
    planned,
    now: now(),
    ...(stopped === undefined ? {} : { stopReason: stopped }),
  });
  await store.writeSummary(built);
  return {
    summary: built,
    executed,
    ...(stopped === undefined ? {} : { stopped }),
    ...(failFastStop === undefined ? {} : { failFast: failFastStop }),
  };
}

/**
 * A just-appended record as the summary would read it back (`scanSamples` with `events: false`):
 * the summary builder drops `input` and the events itself, so only an `output` that JSON would not
 * give back as it is (suite code may return `undefined` members, `NaN`, dates…) is passed through
 * JSON, in a copy; otherwise the record itself is passed on. The other fields are built by typed
 * code (scores already checked), so they read back as they are.
 */
function asStored(record: SampleRecord): SampleRecord {
  if (jsonFaithful(record.output)) return record;
  return { ...record, output: JSON.parse(JSON.stringify(record.output)) as unknown };
}

/**
 * Whether JSON gives `value` back as it is: null, booleans, strings, finite numbers, and arrays
 * and plain objects of those, without holes, `undefined` members, `toJSON` or an own `__proto__`.
 */
function jsonFaithful(value: unknown, depth = 0): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || depth > 64) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      if (!(index in value) || !jsonFaithful(value[index], depth + 1)) return false;
    }
    return true;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  if ('toJSON' in value || Object.hasOwn(value, '__proto__')) return false;
  for (const key in value) {
    if (Object.hasOwn(value, key) && !jsonFaithful((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

type SampleResult = { kind: 'record'; record: SampleRecord } | { kind: 'stopped'; reason: RunStopReason };

async function runOneSample({
  suite,
  options,
  scenario,
  item,
  models,
  defenses,
  signal,
  clock,
  onEvent,
  validate,
}: {
  suite: Suite;
  options: unknown;
  scenario: unknown;
  item: PendingSample;
  models: ModelRolesFactory;
  defenses: Defense[];
  signal: AbortSignal;
  /** The current time as an ISO string. */
  clock: () => string;
  /** Sees every event as it is recorded (live progress). */
  onEvent: (event: TranscriptEvent) => void;
  validate: boolean;
}): Promise<SampleResult> {
  const { sample, attempt } = item;
  const recorder = createEventRecorder({ clock, validate });
  const { events } = recorder;
  const emit: EmitEvent = (input) => {
    const event = recorder.emit(input);
    onEvent(event);
    return event;
  };
  const startedAt = clock();
  let output: unknown = null;
  let input: unknown;
  let terminationReason: string | undefined;
  let scores: Score[] = [];
  let failure: SampleRecord['error'];
  try {
    emit({
      type: 'sample-start',
      sampleId: sample.id,
      scenarioId: sample.scenarioId,
      variant: sample.variant,
      epoch: sample.epoch,
      attempt,
    });
    const roles = models({ sampleId: sample.id, epoch: sample.epoch, emit, signal });
    const outcome = await suite.solve({ sample, scenario, options, models: roles, defenses, emit, signal });
    output = outcome.output;
    input = outcome.input;
    terminationReason = outcome.terminationReason;
    scores = checkedScores(
      await scoreSample({
        scorers: suite.scorers,
        sample,
        scenario,
        options,
        output: outcome.output,
        models: roles,
        emit,
        signal,
      }),
    );
  } catch (error) {
    const stop = runStopOf(error);
    if (stop === 'budget') return { kind: 'stopped', reason: 'budget' };
    if (signal.aborted || stop === 'interrupted') return { kind: 'stopped', reason: 'interrupted' };
    const attached = sampleFailureOf(error);
    failure = {
      name: error instanceof Error ? error.name : 'Error',
      message: error instanceof Error ? error.message : String(error),
      ...(attached.participantId === undefined ? {} : { participantId: attached.participantId }),
      cause: errorCauseOf(error),
    };
    if (attached.partialOutput !== undefined) output = attached.partialOutput;
    scores = [];
  }
  // A suite or judge may turn a failed call into an `error` verdict instead of throwing; a budget
  // stop or an abort behind such a call still means the sample did not really run.
  const failedCalls = failedCallsOf(events);
  if (failedCalls === 'budget') return { kind: 'stopped', reason: 'budget' };
  if (signal.aborted && failedCalls !== 'none') return { kind: 'stopped', reason: 'interrupted' };
  if (failure) {
    const { cause: _cause, ...described } = failure;
    emit({ type: 'sample-error', ...described });
  }
  const judgments = judgmentsFromEvents(events);

  return {
    kind: 'record',
    record: {
      id: sample.id,
      scenarioId: sample.scenarioId,
      variant: sample.variant,
      epoch: sample.epoch,
      seed: sample.seed,
      status: failure ? 'error' : 'ok',
      startedAt,
      finishedAt: clock(),
      attempt,
      ...(input === undefined ? {} : { input }),
      output: output ?? null,
      scores,
      events,
      usage: usageFromEvents(events),
      ...(terminationReason === undefined ? {} : { terminationReason }),
      ...(failure ? { error: failure } : {}),
      ...(judgments.length === 0 ? {} : { judgments }),
    },
  };
}

/** Whether a `model-call` event of this sample failed: `budget` if one failed with a `BudgetExceededError`. */
function failedCallsOf(events: TranscriptEvent[]): 'none' | 'some' | 'budget' {
  let failed: 'none' | 'some' = 'none';
  for (const event of events) {
    if (!isCallOfThisRun(event) || event.error === undefined) continue;
    if (event.error.name === 'BudgetExceededError') return 'budget';
    failed = 'some';
  }
  return failed;
}
