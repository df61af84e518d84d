import pLimit from 'p-limit';
import type { ModelRolesFactory } from '../spec/chat-model.js';
import type { Defense } from '../spec/defense.js';
import { ConfidantError, PlanValidationError } from '../spec/errors.js';
import type { TranscriptEvent } from '../spec/event.js';
import type { RunSummary, SampleRecord } from '../spec/run-record.js';
import type { RunStore } from '../spec/run-store.js';
import type { Score } from '../spec/score.js';
import type { SampleSpec, Suite } from '../suites/suite.js';
import { isModelCallEvent, usageFromEvents } from './aggregate-usage.js';
import { buildSummary } from './build-summary.js';
import { createEventRecorder } from './create-event-recorder.js';
import { type PendingSample, selectPending } from './resume.js';

/** Why a run ended before every planned sample had a record; the run stays resumable. */
export type RunStopReason = 'budget' | 'interrupted';

/** Reported after every finished sample. Tokens and cost cover the samples run by this call. */
export type RunProgress = {
  planned: number;
  /** Planned samples that have a record, including ones recorded before this call. */
  done: number;
  /** Planned samples whose latest record is an error. */
  errors: number;
  inputTokens: number;
  outputTokens: number;
  /** `null` once any call had an unknown price. */
  costUsd: number | null;
  startedAt: string;
};

/** What `runEvaluation` returns; `summary` has also been written to the store. */
export type RunEvaluationResult = {
  summary: RunSummary;
  stopped?: RunStopReason;
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
  /** Also re-run samples whose latest record is an error (attempt + 1). */
  retryErrors?: boolean;
  now?: () => Date;
};

/**
 * Runs the samples that have no record yet (run and resume are the same operation), appending
 * each record to the store as soon as its sample finishes, then writes and returns the summary.
 *
 * Per sample: events are collected (`sample-start` first), `suite.runSample` then `suite.score`
 * run, and usage is aggregated from the `model-call` events. A thrown error gives a record with
 * `status: 'error'`, the error's name and message, a `sample-error` event, the partial events and
 * no scores; an error carrying `participantId` and `partialOutput` keeps them (`error.participantId`,
 * `output`). Two failures are not the sample's fault and leave no record: a `BudgetExceededError`
 * (stop reason `budget`) and an abort of `signal` or a `RunInterruptedError` (`interrupted`).
 * After either, no new sample starts; samples in flight finish or fail, and the run can be
 * resumed later. Failing to append a record is fatal and rethrown once in-flight samples settle.
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
  now = () => new Date(),
}: RunEvaluationOptions): Promise<RunEvaluationResult> {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new PlanValidationError(`concurrency must be a positive integer, got ${concurrency}`);
  }
  const header = await store.readHeader();
  const scenarioById = new Map(scenarios.map((scenario) => [suite.scenarioId(scenario), scenario]));
  const unknown = samples.find((sample) => !scenarioById.has(sample.scenarioId));
  if (unknown) {
    throw new PlanValidationError(
      `sample '${unknown.id}' refers to scenario '${unknown.scenarioId}', which was not loaded`,
    );
  }

  const { pending, done, errors } = selectPending({
    samples,
    records: await store.readSamples({ events: false }),
    retryErrors,
  });
  const progress: RunProgress = {
    planned: samples.length,
    done,
    errors,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    startedAt: now().toISOString(),
  };
  const runSignal = signal ?? new AbortController().signal;
  let stopped: RunStopReason | undefined;
  let fatal: { error: unknown } | undefined;
  let executed = 0;

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
      now,
    });
    if (result.kind === 'stopped') {
      stopped ??= result.reason;
      return;
    }
    try {
      await store.appendSample(result.record);
      executed += 1;
      progress.done += 1;
      if (result.record.status === 'error') progress.errors += 1;
      for (const usage of Object.values(result.record.usage)) {
        progress.inputTokens += usage.inputTokens;
        progress.outputTokens += usage.outputTokens;
        progress.costUsd =
          progress.costUsd === null || usage.costUsd === null ? null : progress.costUsd + usage.costUsd;
      }
      onProgress?.({ ...progress });
    } catch (error) {
      fatal ??= { error };
    }
  };
  const limit = pLimit(concurrency);
  await Promise.all(pending.map((item) => limit(runPending, item)));
  if (fatal) throw fatal.error;

  const summary = buildSummary({
    runId: header.runId,
    suite,
    options,
    planned: samples.map((sample) => sample.id),
    records: await store.readSamples({ events: false }),
    now: now(),
    ...(stopped === undefined ? {} : { stopReason: stopped }),
  });
  await store.writeSummary(summary);
  return { summary, executed, ...(stopped === undefined ? {} : { stopped }) };
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
  now,
}: {
  suite: Suite;
  options: unknown;
  scenario: unknown;
  item: PendingSample;
  models: ModelRolesFactory;
  defenses: Defense[];
  signal: AbortSignal;
  now: () => Date;
}): Promise<SampleResult> {
  const { sample, attempt } = item;
  const { emit, events } = createEventRecorder({ now });
  const startedAt = now().toISOString();
  let output: unknown = null;
  let input: unknown;
  let terminationReason: string | undefined;
  let scores: Score[] = [];
  let failure: { name: string; message: string; participantId?: string } | undefined;
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
    const outcome = await suite.runSample({ sample, scenario, options, models: roles, defenses, emit, signal });
    output = outcome.output;
    input = outcome.input;
    terminationReason = outcome.terminationReason;
    scores = await suite.score({ sample, scenario, options, output: outcome.output, models: roles, emit, signal });
  } catch (error) {
    if (hasErrorNamed(error, 'BudgetExceededError')) return { kind: 'stopped', reason: 'budget' };
    if (signal.aborted || hasErrorNamed(error, 'RunInterruptedError'))
      return { kind: 'stopped', reason: 'interrupted' };
    const attached = failureDetails(error);
    failure = {
      name: error instanceof Error ? error.name : 'Error',
      message: error instanceof Error ? error.message : String(error),
      ...(attached.participantId === undefined ? {} : { participantId: attached.participantId }),
    };
    if (attached.output !== undefined) output = attached.output;
    scores = [];
  }
  // A suite or judge may turn a failed call into an `error` verdict instead of throwing; a budget
  // stop or an abort behind such a call still means the sample did not really run.
  if (failedCallNamed(events, 'BudgetExceededError')) return { kind: 'stopped', reason: 'budget' };
  if (signal.aborted && failedCallNamed(events)) return { kind: 'stopped', reason: 'interrupted' };
  if (failure) emit({ type: 'sample-error', ...failure });

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
      finishedAt: now().toISOString(),
      attempt,
      ...(input === undefined ? {} : { input }),
      output: output ?? null,
      scores,
      events,
      usage: usageFromEvents(events),
      ...(terminationReason === undefined ? {} : { terminationReason }),
      ...(failure ? { error: failure } : {}),
    },
  };
}

/**
 * What a suite attached to a thrown sample failure: `participantId` (who failed) and
 * `partialOutput` (what the sample produced before failing, e.g. a PAC partial transcript).
 */
function failureDetails(error: unknown): { participantId?: string; output?: unknown } {
  if (typeof error !== 'object' || error === null) return {};
  const participantId: unknown = Reflect.get(error, 'participantId');
  const output: unknown = Reflect.get(error, 'partialOutput');
  return {
    ...(typeof participantId === 'string' ? { participantId } : {}),
    ...(output === undefined || output === null ? {} : { output }),
  };
}

/** True if `error` or one of its causes is a confidant error with this name (works across realms). */
function hasErrorNamed(error: unknown, name: string): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth += 1) {
    if (ConfidantError.isInstance(current) && current.name === name) return true;
    current = typeof current === 'object' ? Reflect.get(current, 'cause') : undefined;
  }
  return false;
}

/** True if a `model-call` event of this sample failed (with that error name, when given). */
function failedCallNamed(events: TranscriptEvent[], name?: string): boolean {
  return events.some(
    (event) =>
      isModelCallEvent(event) && event.error !== undefined && (name === undefined || event.error.name === name),
  );
}
