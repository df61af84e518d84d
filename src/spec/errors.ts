const MARKER = Symbol.for('confidant.error');

/**
 * Base class of every operator-facing error. `isInstance` checks a global symbol marker,
 * so it works across duplicated module copies and bundles. `userError` marks faults the
 * user can fix (bad flag, missing key, missing data): the CLI prints the message and exits 2.
 */
export class ConfidantError extends Error {
  readonly [MARKER] = true;
  readonly userError: boolean;

  constructor(message: string, options: { cause?: unknown; userError?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ConfidantError';
    this.userError = options.userError ?? false;
  }

  static isInstance(value: unknown): value is ConfidantError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

function userErrorClass(name: string) {
  return class extends ConfidantError {
    constructor(message: string, options: { cause?: unknown } = {}) {
      super(message, { ...options, userError: true });
      this.name = name;
    }
  };
}

/** A model spec string or role binding that cannot be parsed or resolved. */
export class ModelSpecError extends userErrorClass('ModelSpecError') {}
/** A provider needs an API key that is not set; the message names the variable. */
export class MissingApiKeyError extends userErrorClass('MissingApiKeyError') {}
/** An optional peer dependency is absent; the message names the install command. */
export class MissingOptionalDependencyError extends userErrorClass('MissingOptionalDependencyError') {}
/** The data directory lacks a dataset; the message names the `confidant data pull` command. */
export class DatasetNotFoundError extends userErrorClass('DatasetNotFoundError') {}
/** A data file does not parse; the message names the file and the line or field. */
export class DatasetFormatError extends userErrorClass('DatasetFormatError') {}
/** A downloaded or local file does not match its catalogued checksum. */
export class ChecksumMismatchError extends userErrorClass('ChecksumMismatchError') {}
/** A run plan that cannot run as given (unknown suite, missing role, bad option). */
export class PlanValidationError extends userErrorClass('PlanValidationError') {}
/** A run directory that is missing or not in a format this version reads. */
export class StoreFormatError extends userErrorClass('StoreFormatError') {}
/** A model endpoint failed the pre-flight check; the message names role, endpoint, cause and fix. */
export class PreflightError extends userErrorClass('PreflightError') {}
/** Another process is writing the run directory; the message names the holder and what to do. */
export class RunLockedError extends userErrorClass('RunLockedError') {}

/** A judge's answer did not match its output contract. */
export class JudgeParseError extends ConfidantError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'JudgeParseError';
  }
}

/** A model answer that never parsed after the allowed retries. */
export class ResponseParseError extends ConfidantError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'ResponseParseError';
  }
}

/** How a run-stopping error stops the run (`RunStopReason` of the runner). */
export type RunStopKind = 'budget' | 'interrupted';

/** `--max-cost` or `--max-tokens` was reached; the run stops cleanly and stays resumable. */
export class BudgetExceededError extends ConfidantError {
  /** Stops the run: see `stopsRun`. */
  readonly stopsRun: RunStopKind = 'budget';

  constructor(message: string) {
    super(message);
    this.name = 'BudgetExceededError';
  }
}

/**
 * Kinds of provider failure. `rate-limit` and `transient` are retried with backoff; `unreachable`
 * (nothing listens, the host is unknown or unreachable) gets a short bounded retry only, since a
 * server that is down stays down for longer than a backoff; `deterministic` is not retried.
 */
export type ProviderErrorKind = 'rate-limit' | 'transient' | 'unreachable' | 'deterministic';

/**
 * A provider call that failed; `kind` drives retry, `retryAfterMs` honours the server's hint and
 * `endpoint` names the base URL that failed (credentials stripped), when there is one.
 */
export class ProviderError extends ConfidantError {
  readonly kind: ProviderErrorKind;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly endpoint: string | undefined;

  constructor(
    message: string,
    options: { kind: ProviderErrorKind; status?: number; retryAfterMs?: number; endpoint?: string; cause?: unknown },
  ) {
    super(message, { cause: options.cause });
    this.name = 'ProviderError';
    this.kind = options.kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.endpoint = options.endpoint;
  }
}

/** The run was interrupted (Ctrl-C or abort); finished samples are kept and the run is resumable. */
export class RunInterruptedError extends ConfidantError {
  /** Stops the run: see `stopsRun`. */
  readonly stopsRun: RunStopKind = 'interrupted';

  constructor(message = 'the run was interrupted') {
    super(message);
    this.name = 'RunInterruptedError';
  }
}

const RUN_STOP_KINDS: readonly unknown[] = ['budget', 'interrupted'] satisfies RunStopKind[];

/**
 * How `error` stops the run, if it does: the `stopsRun` of the first error in its cause chain
 * that declares one (`BudgetExceededError`, `RunInterruptedError`). Read as a property, so it
 * works across duplicated module copies.
 */
export function runStopOf(error: unknown): RunStopKind | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    const kind: unknown = Reflect.get(current, 'stopsRun');
    if (RUN_STOP_KINDS.includes(kind)) return kind as RunStopKind;
    current = Reflect.get(current, 'cause');
  }
  return undefined;
}

/**
 * Whether a failure must stop the run instead of being recorded as a failed sample or judgment:
 * `signal` was aborted, the error (or a cause) declares `stopsRun`, or it is the platform's
 * `AbortError`. Such errors pass through untouched so the run stays resumable.
 */
export function stopsRun(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted === true) return true;
  if (runStopOf(error) !== undefined) return true;
  return error instanceof Error && error.name === 'AbortError';
}

/**
 * A sample's failure that carries what the sample produced before it failed and who failed
 * (e.g. a PAC episode's partial transcript and the agent whose turn threw). The runner stores
 * both in the errored record (`output`, `error.participantId`).
 */
export interface SampleFailure {
  /** The participant whose turn failed. */
  readonly participantId?: string | undefined;
  /** The sample's output up to the failure. */
  readonly partialOutput?: unknown;
}

/** What a thrown error tells about the sample that failed (see `SampleFailure`); absent fields are left out. */
export function sampleFailureOf(error: unknown): { participantId?: string; partialOutput?: unknown } {
  if (typeof error !== 'object' || error === null) return {};
  const participantId: unknown = Reflect.get(error, 'participantId');
  const partialOutput: unknown = Reflect.get(error, 'partialOutput');
  return {
    ...(typeof participantId === 'string' ? { participantId } : {}),
    ...(partialOutput === undefined || partialOutput === null ? {} : { partialOutput }),
  };
}
