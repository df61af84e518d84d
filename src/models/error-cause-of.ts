import type { ErrorCause } from '../spec/error-cause.js';
import { ConfidantError } from '../spec/errors.js';
import { redactEndpoint } from './parse-model-spec.js';

/** Node and undici network error codes, in words. */
const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'DNS lookup failed (host not found)',
  EAI_AGAIN: 'DNS lookup failed (temporary)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset by the server',
  EPIPE: 'connection closed by the server',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed by the server',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate could not be verified',
};

/** Codes meaning no server could be reached at all (retried briefly, see `ProviderErrorKind`). */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

const MAX_MESSAGE = 240;

/**
 * The first network error code (`ECONNREFUSED`, …) on `error` or along its `cause` chain, or
 * undefined. Node puts it on the innermost error of a failed `fetch`.
 */
export function networkCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    const code: unknown = Reflect.get(current, 'code');
    if (typeof code === 'string' && code in NETWORK_CODES) return code;
    const message: unknown = Reflect.get(current, 'message');
    if (typeof message === 'string' && /socket hang up/i.test(message)) return 'UND_ERR_SOCKET';
    current = Reflect.get(current, 'cause');
  }
  return undefined;
}

/**
 * A message as it may be grouped and shown: URLs lose credentials, query and fragment; bearer
 * tokens and key-like strings become `[redacted]`; control characters (model output may carry
 * terminal escapes) and runs of whitespace become one space; numbers of two or more digits and
 * decimals, which differ per call (token counts, wait times, turns), become `N`, except an HTTP
 * status; the text is cut at 240 characters.
 */
export function normaliseErrorMessage(text: string): string {
  const cleaned = text
    .replace(/https?:\/\/[^\s'"<>()]+/g, (url) => redactEndpoint(url.replace(/[.,;:]+$/, '')))
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]')
    .replace(/\b(sk|pk|rk|gsk|xai|hf)[-_][A-Za-z0-9_-]{12,}/g, '[redacted]')
    .replace(/\b(api[-_]?key|key|token|secret)=([^&\s]+)/gi, '$1=[redacted]')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing terminal escapes is the point
    .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/(?<![\w.:/-])\d+\.\d+(?![\d:/-]|\.\d)/g, 'N')
    .replace(/(?<![\w.:/@-])(?<!HTTP |status )\d{2,}(?![\d:/-]|\.\d)/g, 'N')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.length > MAX_MESSAGE ? `${cleaned.slice(0, MAX_MESSAGE - 1)}…` : cleaned;
}

function isProviderFault(error: unknown): error is ConfidantError & { endpoint?: unknown; status?: unknown } {
  return ConfidantError.isInstance(error) && error.name === 'ProviderError';
}

/**
 * The cause of a failure, for grouping and display. When a `ProviderError` sits on the error or
 * its cause chain, the cause is that provider fault: its network code in words (`connection
 * refused`), else its normalised message, plus its endpoint. Otherwise the cause is the error's
 * own name and normalised message.
 */
export function errorCauseOf(error: unknown): ErrorCause {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    if (isProviderFault(current)) {
      const code = networkCodeOf(current);
      const endpoint = typeof current.endpoint === 'string' ? current.endpoint : undefined;
      return {
        name: 'ProviderError',
        message: code === undefined ? normaliseErrorMessage(current.message) : (NETWORK_CODES[code] ?? code),
        ...(endpoint === undefined ? {} : { endpoint }),
      };
    }
    current = Reflect.get(current, 'cause');
  }
  if (error instanceof Error) return { name: error.name || 'Error', message: normaliseErrorMessage(error.message) };
  return { name: 'Error', message: normaliseErrorMessage(String(error)) };
}

/**
 * The cause of a stored failure that has only a name and a message (records written before
 * causes were stored): the message normalised, the name kept.
 */
export function causeOfStoredError({ name, message }: { name: string; message: string }): ErrorCause {
  return { name, message: normaliseErrorMessage(message) };
}
