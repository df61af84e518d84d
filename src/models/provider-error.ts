import {
  APICallError,
  EmptyResponseBodyError,
  InvalidResponseDataError,
  JSONParseError,
  NoContentGeneratedError,
  TypeValidationError,
} from '@ai-sdk/provider';
import type { ChatModel } from '../spec/chat-model.js';
import { ConfidantError, ProviderError, type ProviderErrorKind } from '../spec/errors.js';
import { networkCodeOf, UNREACHABLE_CODES } from './error-cause-of.js';

/** Cross-realm check for a `ProviderError` (its class may come from another module copy). */
export function isProviderError(error: unknown): error is ProviderError {
  return ConfidantError.isInstance(error) && error.name === 'ProviderError';
}

/** True when a provider error is worth retrying (`rate-limit`, `transient` or, briefly, `unreachable`). */
export function isRetryableProviderError(error: unknown): error is ProviderError {
  return isProviderError(error) && error.kind !== 'deterministic';
}

/**
 * The server's retry hint in milliseconds: `retry-after-ms`, else `retry-after` as seconds or
 * as an HTTP date (relative to `now`). Header names are matched case-insensitively. Returns
 * `undefined` when absent or unparsable; negative waits become 0.
 */
export function parseRetryAfterMs(
  headers: Record<string, string | undefined> | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  let milliseconds: string | undefined;
  let seconds: string | undefined;
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'retry-after-ms') milliseconds = value;
    else if (lower === 'retry-after') seconds = value;
  }
  if (milliseconds !== undefined) {
    const value = Number(milliseconds.trim());
    if (milliseconds.trim() !== '' && Number.isFinite(value)) return Math.max(0, value);
  }
  if (seconds === undefined || seconds.trim() === '') return undefined;
  const asNumber = Number(seconds.trim());
  if (Number.isFinite(asNumber)) return Math.max(0, asNumber * 1000);
  const date = Date.parse(seconds);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The retry kind of an HTTP status: 429 → rate-limit; 408 and 5xx → transient; other 4xx and
 * unfollowed 3xx redirects → deterministic; no status (network failure) → transient.
 */
export function kindOfStatus(status: number | undefined): ProviderErrorKind {
  if (status === undefined) return 'transient';
  if (status === 429) return 'rate-limit';
  if (status === 408 || status >= 500) return 'transient';
  if (status >= 300) return 'deterministic';
  // A 2xx/3xx that still failed means the body could not be used: treat like a flaky server.
  return 'transient';
}

/** `text` with every occurrence of each secret (an API key) replaced by `[redacted]`. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (secret.length > 0) result = result.split(secret).join('[redacted]');
  return result;
}

function isAbortLike(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** `unreachable` when nothing could be reached (refused connection, unknown host), else `transient`. */
function networkKind(error: unknown): ProviderErrorKind {
  const code = networkCodeOf(error);
  return code !== undefined && UNREACHABLE_CODES.has(code) ? 'unreachable' : 'transient';
}

/** Who failed, for the provider-error builders: the message names `provider:modelId`; secrets are scrubbed. */
export type ProviderErrorSource = {
  provider: string;
  modelId: string;
  /** Strings (API keys) removed from the message, which ends up in events. */
  secrets?: readonly string[];
  /** For an HTTP-date `retry-after` (default: the clock). */
  now?: number;
};

/**
 * The `ProviderError` of a request that got an unusable HTTP answer (`status`) or none at all (no
 * `status`: a network failure, `unreachable` when nothing could be reached), with the server's
 * retry hint from `headers`. Its message is `provider:model: HTTP <status>: <message>` (or
 * `request failed: <message>`). Both model-layer paths to a server build their HTTP errors here,
 * so retries, causes and events cannot tell them apart.
 */
export function apiCallProviderError(
  options: ProviderErrorSource & {
    status?: number;
    message: string;
    headers?: Record<string, string | undefined>;
    cause: unknown;
  },
): ProviderError {
  const { status } = options;
  const kind = status === undefined ? networkKind(options.cause) : kindOfStatus(status);
  const retryAfterMs = parseRetryAfterMs(options.headers, options.now);
  const prefix = status === undefined ? 'request failed' : `HTTP ${status}`;
  const text = `${options.provider}:${options.modelId}: ${prefix}: ${options.message}`;
  return new ProviderError(scrubSecrets(text, options.secrets ?? []), {
    kind,
    ...(status === undefined ? {} : { status }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    cause: options.cause,
  });
}

/** The `transient` error of a 2xx answer whose content cannot be used (e.g. it holds no choices). */
export function malformedResponseError(
  options: ProviderErrorSource & { message: string; cause: unknown },
): ProviderError {
  const text = `${options.provider}:${options.modelId}: malformed response: ${options.message}`;
  return new ProviderError(scrubSecrets(text, options.secrets ?? []), { kind: 'transient', cause: options.cause });
}

/**
 * Maps anything an AI SDK model (or its fetch) threw to a `ProviderError` whose `kind` drives
 * retries: HTTP errors by status (with the server's retry hint); a refused connection or an
 * unknown host as `unreachable`; other network failures, timeouts and malformed or unparsable
 * responses as `transient`; everything else as `deterministic`.
 * `secrets` (e.g. the API key) are removed from the message, which ends up in events.
 */
export function toProviderError(error: unknown, options: ProviderErrorSource): ProviderError {
  if (isProviderError(error)) return error;
  const secrets = options.secrets ?? [];
  const where = `${options.provider}:${options.modelId}`;
  if (APICallError.isInstance(error)) {
    return apiCallProviderError({
      ...options,
      ...(error.statusCode === undefined ? {} : { status: error.statusCode }),
      message: error.message,
      ...(error.responseHeaders === undefined ? {} : { headers: error.responseHeaders }),
      cause: error,
    });
  }
  const malformed =
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    InvalidResponseDataError.isInstance(error) ||
    EmptyResponseBodyError.isInstance(error) ||
    NoContentGeneratedError.isInstance(error);
  const message = error instanceof Error ? error.message : String(error);
  if (malformed) return malformedResponseError({ ...options, message, cause: error });
  if (isAbortLike(error) || (error instanceof TypeError && /fetch failed/i.test(message))) {
    return new ProviderError(scrubSecrets(`${where}: network error: ${message}`, secrets), {
      kind: networkKind(error),
      cause: error,
    });
  }
  return new ProviderError(scrubSecrets(`${where}: ${message}`, secrets), { kind: 'deterministic', cause: error });
}

/**
 * The `transient` error of a request that got no answer within the client-side timeout (the
 * same words on every adapter, so a timeout groups as one cause).
 */
export function requestTimeoutError(options: {
  provider: string;
  modelId: string;
  timeoutMs: number;
  cause: unknown;
}): ProviderError {
  return new ProviderError(`${options.provider}:${options.modelId}: no response within ${options.timeoutMs} ms`, {
    kind: 'transient',
    cause: options.cause,
  });
}

/**
 * The adapter with every `ProviderError` it throws tagged with `endpoint` (a redacted base URL),
 * so the failure's cause can name the server that failed. Other errors pass unchanged.
 */
export function tagEndpointErrors({ model, endpoint }: { model: ChatModel; endpoint: string }): ChatModel {
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    async doGenerate(request) {
      try {
        return await model.doGenerate(request);
      } catch (error) {
        if (!isProviderError(error) || error.endpoint !== undefined) throw error;
        throw new ProviderError(error.message, {
          kind: error.kind,
          endpoint,
          ...(error.status === undefined ? {} : { status: error.status }),
          ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
          cause: error.cause,
        });
      }
    },
  };
}
